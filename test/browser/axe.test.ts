import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_VIEW, openRoute, openSampleSession, WAIT, type SampleSession } from './page.js';

/**
 * An axe-core scan of every view on the bundled sample (issue 16: no serious violation). axe is injected as a script,
 * which the UI's strict CSP would refuse, so this page's context bypasses CSP; the UI itself is unchanged.
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let session: SampleSession;
let page: Page;

beforeAll(async () => {
  session = await openSampleSession();
  const context = await session.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  page.setDefaultTimeout(WAIT);
}, 180_000);
afterAll(async () => {
  await session?.close();
});

async function seriousViolations(): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')}`,
    );
}

describe('axe-core on every view', () => {
  it.each(EVERY_VIEW)('%s has no serious or critical violation', async (hash, ready) => {
    await openRoute({ page, url: session.server.url, hash, ready });
    expect(await seriousViolations()).toEqual([]);
  });

  it('sees a violation when there is one (the scan is live)', async () => {
    await openRoute({ page, url: session.server.url, hash: '#/chat', ready: 'textarea' });
    await page.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: { createElement(t: string): { src: string }; body: { append(e: unknown): void } };
        }
      ).document;
      const img = doc.createElement('img');
      img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
      doc.body.append(img);
    });
    expect((await seriousViolations()).join('\n')).toMatch(/^image-alt \(critical\)/m);
  });
});
