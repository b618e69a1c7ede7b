import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectConsoleErrors,
  EVERY_VIEW,
  horizontalOverflow,
  openRoute,
  openSampleSession,
  overflowingElements,
  SHOTS,
  type SampleSession,
} from './page.js';

/**
 * Every view on a 390 px phone (issue 16, "everywhere"): rendered on the bundled sample, nothing scrolls sideways,
 * and no console error. Each view's first address is photographed as `<view>-phone.png` (docs/web.md), except the
 * views whose own tests photograph them in a chosen state (timeline, inbox, diff, snapshot, search).
 */
const OWN_PHONE_SHOTS = new Set(['timeline', 'inbox', 'diff', 'snapshot', 'search']);
const shot = new Set<string>();
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
    const view = hash.replace(/^#\//, '').split(/[/?]/)[0] ?? '';
    if (!OWN_PHONE_SHOTS.has(view) && !shot.has(view)) {
      shot.add(view);
      await page.screenshot({ path: join(SHOTS, `${view}-phone.png`), fullPage: false });
    }
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
