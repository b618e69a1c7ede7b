import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations as scan } from './axe-scan.js';
import { HOLD_PREVIEW_AFTER_FIRST_PHASE } from './hold-preview.js';
import { EVERY_VIEW, horizontalOverflow, openRoute, openSampleSession, WAIT, type SampleSession } from './page.js';

/** An axe-core scan of every view on the bundled sample (issue 16: no serious violation); see axe-scan.ts. */
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

const seriousViolations = (): Promise<string[]> => scan(page);

describe('axe-core on every view', () => {
  it.each(EVERY_VIEW)('%s has no serious or critical violation', async (hash, ready) => {
    await openRoute({ page, url: session.server.url, hash, ready });
    expect(await seriousViolations()).toEqual([]);
  });

  it('the Maintenance view while a sleep preview streams in and once it is complete (also: no sideways scroll at 390 px)', async () => {
    await openRoute({ page, url: session.server.url, hash: '#/maintenance', ready: '#health-h' });
    await page.evaluate(HOLD_PREVIEW_AFTER_FIRST_PHASE);
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.waitForSelector('#sleep-phases tbody tr[data-status]');
    await page.waitForSelector('#sleep-result .progress[role=status]');
    expect(await seriousViolations()).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.evaluate('window.__releasePreview()');
    await page.waitForSelector('#sleep-result [data-complete="true"]');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(await seriousViolations()).toEqual([]);
    await page.evaluate('window.fetch = window.__realFetch');
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
