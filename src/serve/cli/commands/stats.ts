import type { Command } from 'commander';
import { databaseIsEncrypted } from '../../../compose.js';
import { periodCount, type WorldStats } from '../../../domain/world.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';
import { countList, localDate, num, table } from '../format.js';

export function registerStats(program: Command, run: ActionRunner): void {
  program
    .command('stats')
    .description(
      'counts: episodes, turns, entities by type and tier, transitions, facts, relationships, periods, procedures',
    )
    .action(() => run(stats));
}

async function stats(ctx: CommandContext): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const s = await services.store.stats();
  const info = services.store.info();
  const encrypted = databaseIsEncrypted(ctx.config);
  const where =
    info.adapter === 'postgres'
      ? `PostgreSQL ${info.location} (vector search: ${info.vectorSearch ?? info.vectors ?? 'exact scan'})`
      : `${info.location}${encrypted ? ' (encrypted)' : ''}`;
  ctx.emit({
    text: render(s, ctx.config.tz, where),
    json: {
      database: info.location,
      adapter: info.adapter,
      ...(info.vectors === undefined ? {} : { vectors: info.vectors }),
      ...(info.vectorSearch === undefined ? {} : { vectorSearch: info.vectorSearch }),
      encrypted,
      ...s,
    },
  });
}

function periodNote(s: Pick<WorldStats, 'periods' | 'entitiesByType'>): string {
  const total = periodCount(s);
  return total > s.periods ? `${num(s.periods)} with dates; pie periods lists them all` : '';
}

function render(s: WorldStats, tz: string, location: string): string {
  const span =
    s.firstEpisodeAt !== null && s.lastEpisodeAt !== null
      ? `${localDate(s.firstEpisodeAt, tz)} to ${localDate(s.lastEpisodeAt, tz)}`
      : 'no episodes yet';
  return [
    `Database: ${location}`,
    table([
      ['episodes', num(s.episodes), `${num(s.episodesPendingExtraction)} waiting for extraction; ${span}`],
      ['turns', num(s.turns), ''],
      ['entities', num(s.entities), `by type: ${countList(s.entitiesByType)}`],
      ['', '', `by tier: ${countList(s.entitiesByTier)}`],
      ['transitions', num(s.transitions), ''],
      ['facts', num(s.facts), `${num(s.currentFacts)} current`],
      ['relationships', num(s.relationships), ''],
      ['periods', num(periodCount(s)), periodNote(s)],
      ['procedures', num(s.procedures), ''],
    ]),
  ].join('\n');
}
