import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { NOW_MS } from '../helpers/inbox.js';
import { openSampleSession, waitForRoute, type SampleSession } from './page.js';

/**
 * Two entities with one name: the sample's Tidepool (a project) and a place called Tidepool, added through the store.
 * A typed URL (#/entity/Tidepool) opens the more important one, as the CLI does; a link from a list opens the entity
 * it was drawn for (the link carries its id), and each page names the other with a link; in Debian's Chromium
 * against the real `pie serve`.
 */
let session: SampleSession;
const PLACE_ID = 'seed-tidepool-place';

async function seedPlace(db: string): Promise<void> {
  const env = { PIE_TZ: 'UTC' };
  const services = await compose({ config: loadConfig({ flags: { db, now: '2025-11-01', tz: 'UTC' }, env }), env });
  try {
    await services.store.entities.insert({
      id: PLACE_ID,
      type: 'place',
      name: 'Tidepool',
      state: { category: 'place' },
      firstSeen: NOW_MS,
      lastSeen: NOW_MS,
      createdFrom: null,
      recordedAt: NOW_MS,
      importance: 0.05,
    });
    // The project gets more changes than a page holds, so its page links older ones.
    const project = (await services.store.entities.findByKey('tidepool')).find((e) => e.type === 'project');
    if (!project) throw new Error('the sample has no Tidepool');
    for (let i = 0; i < 120; i++) {
      const t = NOW_MS - (120 - i) * 3_600_000;
      await services.store.transitions.insert({
        id: `seed-tidepool-${i}`,
        entityId: project.id,
        kind: 'update',
        fromState: {},
        toState: { tide: `level ${i}` },
        summary: `Tide level ${i}`,
        eventTime: t,
        recordedAt: t,
        confidence: 1,
        episodeId: null,
        batchId: null,
        resolvedBy: null,
      });
    }
  } finally {
    await services.close();
  }
}

beforeAll(async () => {
  session = await openSampleSession({ seed: seedPlace });
});
afterAll(async () => {
  await session?.close();
});

describe('two entities with one name', () => {
  it('a typed URL opens the more important; a list link opens the one it lists, and its pages stay on it', async () => {
    const { page } = session;
    await page.goto(`${session.server.url}#/entity/Tidepool`);
    await waitForRoute(page, '#/entity/Tidepool');
    expect(await page.locator('h1 .badge').textContent()).toBe('project');
    // The page says another entity has the name, with a link that opens it.
    expect(await page.locator('#same-name').textContent()).toBe('Others named Tidepool: Tidepool (place)');
    expect(await page.locator('#same-name a').getAttribute('href')).toBe(`#/entity/Tidepool?id=${PLACE_ID}`);
    // Opened by its name, its older changes stay its own: the pager carries its id (one query string, the offset
    // after it).
    const older = page.locator('nav.pager a', { hasText: 'Older' });
    const olderHref = await older.getAttribute('href');
    expect(olderHref).toMatch(/^#\/entity\/Tidepool\?id=[^?&]+&offset=\d+$/);
    await older.click();
    await waitForRoute(page, olderHref ?? '');
    expect(await page.locator('h1 .badge').textContent()).toBe('project');
    expect(await page.locator('#timeline').textContent()).not.toContain('Tide level 119');

    await page.goto(`${session.server.url}#/search?offset=0&type=place`);
    await waitForRoute(page, '#/search?offset=0&type=place');
    const link = page.locator('#main table.list a', { hasText: /^Tidepool$/ });
    const href = await link.getAttribute('href');
    expect(href).toBe(`#/entity/Tidepool?id=${PLACE_ID}`);
    await link.click();
    await waitForRoute(page, href ?? '');
    expect(await page.locator('h1 .badge').textContent()).toBe('place');
    expect(await page.locator('h1').textContent()).toContain('Tidepool');
    expect(await page.locator('#same-name').textContent()).toBe('Others named Tidepool: Tidepool (project)');
  });
});
