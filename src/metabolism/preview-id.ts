import { createHash } from 'node:crypto';
import { PieError } from '../domain/errors.js';
import type { WorldStats } from '../domain/world.js';
import type { SleepReport } from './sleep.js';

/**
 * The identity of a sleep preview: the instant it was planned at, and a digest of its scope, its planned phases and
 * the world's counts. Applying "this preview" replans at the same instant and applies only when the identity is
 * the same, so a click applies what was shown, never a plan made for other options or a world that changed since.
 * Pure.
 */
export function sleepPreviewId(report: Pick<SleepReport, 'scope' | 'now' | 'phases'>, world: WorldStats): string {
  const digest = createHash('sha256')
    .update(JSON.stringify({ scope: report.scope, now: report.now, phases: report.phases, world }))
    .digest('hex')
    .slice(0, 24);
  return `${report.now}.${digest}`;
}

/** The instant a preview id was planned at; a malformed id is INVALID_ARGUMENT. */
export function previewInstant(id: string): number {
  const match = /^(-?\d{1,16})\.[0-9a-f]{24}$/.exec(id);
  if (!match?.[1]) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${id}" is not a sleep preview id; preview the sleep (dry_run) and pass its preview_id.`,
    );
  }
  return Number(match[1]);
}
