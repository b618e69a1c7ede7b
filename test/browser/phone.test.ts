import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, openRoute, openSampleSession, overflowingElements, type SampleSession } from './page.js';

/**
 * Every view on a 390 px phone (issue 16, "everywhere"): rendered on the bundled sample, nothing scrolls sideways,
 * and no console error.
 */
let session: SampleSession;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  session = await openSampleSession();
  page = session.page;
  await page.setViewportSize({ width: 390, height: 844 });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
}, 180_000);
afterAll(async () => {
  await session?.close();
});

const A = encodeURIComponent('junior year at UMD');
const B = encodeURIComponent('gap semester in San Francisco');

describe('every view on a 390 px phone', () => {
  it.each([
    ['#/search?q=Tidepool', '#search-results li'],
    ['#/entity/Tidepool', '#timeline li'],
    ['#/entity/Maya%20Chen', '#timeline li'],
    ['#/graph/Tidepool', '#graph-nodes li'],
    [`#/diff?a=${A}&b=${B}`, '#diff-new'],
    ['#/snapshot?at=2025-01-15', '#snapshot-summary'],
    ['#/chat', 'textarea'],
    ['#/maintenance', '#health-h'],
    ['#/inbox', 'main h1'],
  ])('%s', async (hash, ready) => {
    await openRoute({ page, url: session.server.url, hash, ready });
    const overflow = await horizontalOverflow(page);
    expect(overflow, `${hash} scrolls sideways: ${(await overflowingElements(page)).join(', ')}`).toBeLessThanOrEqual(
      0,
    );
    expect(consoleErrors, hash).toEqual([]);
  });

  it('an episode page', async () => {
    await openRoute({ page, url: session.server.url, hash: '#/entity/Tidepool', ready: '#timeline li' });
    const href = await page.locator('#timeline a[href^="#/episode/"]').first().getAttribute('href');
    expect(href).toBeTruthy();
    await openRoute({ page, url: session.server.url, hash: href ?? '', ready: 'main h1' });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(consoleErrors).toEqual([]);
  });
});
