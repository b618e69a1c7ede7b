import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectConsoleErrors,
  EVERY_VIEW,
  horizontalOverflow,
  openRoute,
  openSampleSession,
  overflowingElements,
  type SampleSession,
} from './page.js';

/**
 * Every view on a 390 px phone (issue 16, "everywhere"): rendered on the bundled sample, nothing scrolls sideways,
 * and no console error.
 */
let session: SampleSession;
let page: Page;
let consoleErrors: string[] = [];

beforeAll(async () => {
  session = await openSampleSession();
  page = session.page;
  await page.setViewportSize({ width: 390, height: 844 });
  consoleErrors = collectConsoleErrors(page);
}, 180_000);
afterAll(async () => {
  await session?.close();
});

describe('every view on a 390 px phone', () => {
  it.each([...EVERY_VIEW, ['#/entity/Maya%20Chen', '#timeline li'] as const])('%s', async (hash, ready) => {
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
