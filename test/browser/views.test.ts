import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  horizontalOverflow,
  openRoute,
  openSampleSession,
  type SampleSession,
  SHOTS,
  waitForRoute,
  collectConsoleErrors,
} from './page.js';

/**
 * The Diff, Snapshot and Search views in Debian's Chromium against the real `pie serve` on the bundled sample
 * (ingested offline): structured sections with every name a link, tier badges, roles and since/until, ∅ and
 * plurals, the compiled text under a disclosure, progress on a slow answer, search cards and how a query was read;
 * no console error and no horizontal scroll on a 390 px phone.
 */

const A = 'junior year at UMD';
const B = 'gap semester in San Francisco';
const DIFF = `#/diff?a=${encodeURIComponent(A)}&b=${encodeURIComponent(B)}`;

let session: SampleSession;
let page: Page;
let consoleErrors: string[] = [];

async function go(hash: string, ready: string): Promise<void> {
  await openRoute({ page, url: session.server.url, hash, ready });
}

async function texts(selector: string): Promise<string[]> {
  return page.locator(selector).allTextContents();
}

beforeAll(async () => {
  session = await openSampleSession();
  page = session.page;
  consoleErrors = collectConsoleErrors(page);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe('Diff view', () => {
  it('shows New, Changed, Ended and Contradictions between two sample periods, every name a link', async () => {
    await go(DIFF, '#diff-new');
    expect(await page.title()).toBe(`Diff: ${A} → ${B} — PIE`);
    expect(await page.locator('#diff-summary').textContent()).toBe(
      `From the end of ${A} (2025-05-08) to the end of ${B} (2025-10-22): 43 → 57 entities (+14).`,
    );
    // New: the people and companies of the fundraising, the OpenAI SDK; each a link to its page, with tier badges.
    const created = page.locator('#diff-created li:not(.more)');
    const names = await page.locator('#diff-created li a.entity-link').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Elena Park', 'Northgate Ventures', 'OpenAI SDK', 'Neo4j']));
    expect(await page.locator('#diff-created li .badge.tier').count()).toBe(await created.count());
    expect(await page.locator('#diff-created-h').textContent()).toBe('Entities (14)');
    expect(await page.locator('#diff-begun').textContent()).toContain(
      'Maya Chen person WORKS_ON Tidepool project (role: CEO)',
    );
    // Changed: before → after, with ∅ where there was nothing.
    const langchain = page.locator('#diff-state > ul > li', { hasText: 'LangChain' });
    expect(await langchain.locator('.change').textContent()).toBe('status: adopted → dropped');
    expect(await langchain.locator('del').textContent()).toBe('adopted');
    expect(await langchain.locator('ins').textContent()).toBe('dropped');
    const tidepool = page.locator('#diff-state > ul > li', { has: page.locator('a', { hasText: /^Tidepool$/ }) });
    expect(await tidepool.locator('.change').allTextContents()).toContain('fundraising: ∅ → round closed');
    // Ended: the relationship with its role and its whole validity.
    const ended = await texts('#diff-ended-edges li');
    expect(ended).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Maya Chen person WORKS_ON Tidepool project \(role: co-founder\) — since 2024-\d\d-\d\d, until 2025-06-20$/,
        ),
        expect.stringMatching(/^Tidepool project USES LangChain tool \(for: paper-summarization pipeline\)/),
      ]),
    );
    expect(await page.locator('#diff-quiet-h').textContent()).toBe(
      'Gone quiet (mentioned during junior year at UMD, not during gap semester in San Francisco) (30)',
    );
    // Contradictions: both, labelled in words.
    const contradictions = await texts('#diff-contradictions li.contradiction');
    expect(contradictions).toHaveLength(2);
    expect(contradictions.join('\n')).toMatch(
      /⚠ contradiction.*Maya Chen.*Maya Chen is now CEO.*role: co-founder → CEO/s,
    );
    // Every entity name links to its page; no "null"; plurals agree with their numbers.
    const hrefs = await page
      .locator('#diff-result a.entity-link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(50);
    expect(hrefs.every((h) => h?.startsWith('#/entity/'))).toBe(true);
    const visible = (await page.locator('#diff-result').innerText()).replace(/What the model sees[\s\S]*$/, '');
    expect(visible).not.toMatch(/\bnull\b/);
    expect(visible).not.toMatch(/\b1 (mentions|changes|entities|contradictions)\b/);
    expect(visible).not.toMatch(/\b([02-9]|\d\d+) (mention|change|contradiction)\b(?!s)/);
  });

  it('keeps the compiled text under "What the model sees"', async () => {
    const details = page.locator('#diff-result details.model-text');
    expect(await details.getAttribute('open')).toBeNull();
    expect(await details.locator('pre').isVisible()).toBe(false);
    await details.locator('summary', { hasText: 'What the model sees' }).click();
    expect(await details.locator('pre').isVisible()).toBe(true);
    expect(await details.locator('pre').textContent()).toMatch(
      /^Changes from the end of junior year at UMD, 8 May 2025 .*\nEntities: 43 → 57 \(\+14\)\.\nNew \(14\):/,
    );
  });

  it('jumps to a section without leaving the diff', async () => {
    await page.locator('nav.jump a', { hasText: '2 contradictions' }).click();
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('diff-contradictions');
    expect(new URL(page.url()).hash).toBe(DIFF);
    expect(await page.locator('#diff-new').count()).toBe(1);
  });

  it('shows the rest of a long list on request, and a name opens its entity', async () => {
    expect(await page.locator('#diff-quiet li.more').textContent()).toContain('… and 10 more.');
    await page.locator('#diff-quiet li.more a', { hasText: 'Show up to 100' }).click();
    await waitForRoute(page, `${DIFF}&limit=100`);
    await page.waitForSelector('#diff-quiet');
    expect(await page.locator('#diff-quiet li').count()).toBe(30);
    await page.locator('#diff-created a.entity-link', { hasText: 'Elena Park' }).click();
    await page.waitForSelector('#timeline li');
    expect(await page.locator('h1').textContent()).toContain('Elena Park');
  });

  it('shows progress while a slow answer comes, then the result', async () => {
    await page.route('**/api/diff?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    try {
      await page.goto(`${session.server.url}${DIFF}`);
      const progress = page.locator('#diff-result .progress[role=status]');
      await progress.waitFor();
      expect(await progress.textContent()).toContain(`Comparing ${A} with ${B}…`);
      expect(await progress.locator('progress').getAttribute('aria-label')).toBe(`Comparing ${A} with ${B}…`);
      await page.waitForSelector('#diff-new');
      expect(await progress.count()).toBe(0);
    } finally {
      await page.unroute('**/api/diff?*');
    }
  });
});

describe('Snapshot view', () => {
  it('shows the world at the end of a period in sections by type, with state, tiers and relationships then', async () => {
    await go(`#/snapshot?at=${encodeURIComponent(A)}`, '#snapshot-summary');
    expect(await page.title()).toBe(`Snapshot: ${A} — PIE`);
    expect(await page.locator('#snapshot-summary').textContent()).toMatch(
      /^At the end of junior year at UMD \(2024-09-03 – 2025-05-08\): 43 entities, \d+ transitions so far; \d+ entities active in this period\.$/,
    );
    const headings = await texts('#snapshot-result section.counted > h2');
    expect(headings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Projects \(1\)$/),
        expect.stringMatching(/^People \(\d+\)$/),
        expect.stringMatching(/^Tools \(\d+\)$/),
      ]),
    );
    const tidepool = page.locator('#snapshot-result li[data-entity="Tidepool"]');
    expect(await tidepool.locator('a.entity-link').first().getAttribute('href')).toMatch(/^#\/entity\/Tidepool\?id=/);
    expect(await tidepool.locator('.card-head .badge.tier').textContent()).toBe('active');
    expect(await tidepool.locator('dl.state').textContent()).toContain('focusa research-notes tool for labs');
    const edges = await tidepool.locator('ul.edges li').allTextContents();
    expect(edges).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^← Maya Chen person WORKS_ON \(role: co-founder\) — since 2024-\d\d-\d\d, until 2025-06-20$/,
        ),
      ]),
    );
    // Every card is badged with its tier, and every name in the snapshot is a link.
    const cards = page.locator('#snapshot-result li.entity-card');
    expect(await page.locator('#snapshot-result li.entity-card .card-head .badge.tier').count()).toBe(
      await cards.count(),
    );
    const hrefs = await page
      .locator('#snapshot-result a.entity-link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.every((h) => h?.startsWith('#/entity/'))).toBe(true);
    const visible = (await page.locator('#snapshot-result').innerText()).replace(/What the model sees[\s\S]*$/, '');
    expect(visible).not.toMatch(/\bnull\b/);
    expect(visible).not.toMatch(/\b1 (mentions|changes|entities|transitions)\b/);
  });

  it('shows more entities on request', async () => {
    const note = page.locator('#snapshot-result p.muted', { hasText: 'most important of' });
    expect(await note.textContent()).toMatch(/^The 40 most important of 43 entities, by type/);
    await page.locator('#snapshot-more').click();
    await waitForRoute(page, `#/snapshot?at=${encodeURIComponent(A)}&type=&limit=200`);
    await page.waitForSelector('#snapshot-summary');
    expect(await page.locator('#snapshot-result li.entity-card').count()).toBe(43);
    expect(await page.locator('#snapshot-more').count()).toBe(0);
  });

  it('keeps the compiled text under "What the model sees", and a type filters', async () => {
    const pre = page.locator('#snapshot-result details.model-text pre');
    expect(await pre.isVisible()).toBe(false);
    expect(await pre.textContent()).toMatch(/^World at the end of junior year at UMD, 8 May 2025/);
    const tools = page.locator('#snapshot-result p.types a', { hasText: /^tool \d+$/ });
    const href = (await tools.getAttribute('href')) ?? '';
    expect(href).toBe(`#/snapshot?at=${encodeURIComponent(A)}&type=tool`);
    await tools.click();
    await waitForRoute(page, href);
    expect(await texts('#snapshot-result section.counted > h2')).toEqual([expect.stringMatching(/^Tools \(\d+\)$/)]);
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('tool');
  });
});

describe('Search view', () => {
  it('leads with the entity card when the query names an entity', async () => {
    await go('#/search?q=Tidepool', '#search-entities');
    expect(await page.title()).toBe('Search: Tidepool — PIE');
    // The card comes right after the heading, before every other result.
    const order = await page.locator('#search-results > *').evaluateAll((els) => els.map((e) => e.id || e.tagName));
    expect(order.slice(0, 2)).toEqual(['results-h', 'search-entities']);
    const card = page.locator('#search-entities li[data-entity="Tidepool"]');
    expect(await card.locator('.card-head').textContent()).toBe('Tidepool project active');
    expect(await card.locator('dl.state').textContent()).toContain('stagepivoted');
    expect(await card.locator('.latest').textContent()).toMatch(
      /^Latest change \(2025-10-22\): .+ — from Hiring our first engineer$/,
    );
    expect(await card.textContent()).toMatch(/\d+ changes · first seen 2024-09-10 · last seen 2025-10-22/);
    // The rest: no second Tidepool entity row; conversations grouped, their matching turns marked.
    expect(await page.locator('#search-hits a.entity-link', { hasText: /^Tidepool$/ }).count()).toBe(0);
    const groups = page.locator('#search-conversations > li');
    expect(await groups.count()).toBeGreaterThan(3);
    const withTurns = groups.filter({ has: page.locator('ol.turns li') }).first();
    expect(await withTurns.locator('ol.turns li mark').first().textContent()).toBe('Tidepool');
    const turn = withTurns.locator('ol.turns li a').first();
    const href = (await turn.getAttribute('href')) ?? '';
    expect(href).toMatch(/^#\/episode\/.+\?seq=\d+$/);
    await turn.click();
    await page.waitForSelector('#conversation li.turn.marked');
    expect(await page.locator('#conversation li.turn.marked').textContent()).toContain('Tidepool');
  });

  it('says how it read a query that matches nothing', async () => {
    await go('#/search?q=zzqx%20in%20spring%202019', '#search-reading');
    expect(await page.locator('#results-h').textContent()).toBe('Nothing matches “zzqx in spring 2019”');
    expect(await page.locator('#search-reading').getAttribute('open')).not.toBeNull();
    expect(await page.locator('#reading-time').textContent()).toBe(
      '“spring 2019” read as spring 2019 (1 Mar – 31 May 2019)',
    );
    const lanes = await texts('#reading-lanes li');
    expect(lanes).toEqual(
      expect.arrayContaining([
        'temporal: 0 hits',
        'lexical: 0 hits',
        expect.stringMatching(/^vector: not used \(no embedder/),
      ]),
    );
    expect(await page.locator('#search-entities').count()).toBe(0);
  });
});

describe('Search errors', () => {
  it('shows a refused query next to the form, which keeps it', async () => {
    const long = 'x'.repeat(501);
    const before = consoleErrors.length;
    await go(`#/search?q=${long}`, '#search-results .error');
    expect(await page.locator('#search-results .error').textContent()).toMatch(/^Invalid request query: q: /);
    expect(await page.getByLabel('Search entities, changes and conversations').inputValue()).toBe(long);
    // The browser logs the refused request itself; that one is expected, anything else is not.
    const logged = consoleErrors.splice(before);
    expect(logged).toEqual([expect.stringMatching(/status of 400/)]);
  });
});

describe('on a 390 px phone', () => {
  it('nothing scrolls sideways on Diff, Snapshot and Search', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [name, hash, ready] of [
        ['diff-phone', DIFF, '#diff-new'],
        ['snapshot-phone', '#/snapshot?at=2025-01-15', '#snapshot-summary'],
        ['search-phone', '#/search?q=Tidepool', '#search-entities'],
        [null, '#/search?q=zzqx%20in%20spring%202019', '#search-reading'],
        [null, '#/search', '#browse-h'],
      ] as const) {
        await go(hash, ready);
        expect(await horizontalOverflow(page), hash).toBe(0);
        if (name) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('logged no console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});
