import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRoute, openSampleSession, SHOTS, type SampleSession } from './page.js';
import type { SampleServer } from './server.js';
import { HOLD_PREVIEW_AFTER_FIRST_PHASE } from './hold-preview.js';

/**
 * The web UI in Debian's Chromium against the real `pie serve` on the bundled sample (ingested offline), with the
 * scripted fake model for chat. One browser for the file; every step waits for what it needs (no sleeps).
 *
 * Each main view is saved as a PNG (see SHOTS in page.ts for where).
 */

let session: SampleSession;
let server: SampleServer;
let page: Page;
const foreign: string[] = [];

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** The running server's API, read from the test itself (not through the page). */
async function api<T>(path: string): Promise<T> {
  const res = await fetch(new URL(path, server.url));
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A sleep preview streamed by the server to the test itself: its phase names and its identity. */
async function streamedPreview(scope: string): Promise<{ phases: string[]; previewId: string | undefined }> {
  const res = await fetch(new URL('api/sleep/preview', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scope }),
  });
  const lines = (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; phases?: string[]; previewId?: string });
  return { phases: lines[0]?.phases ?? [], previewId: lines.at(-1)?.previewId };
}

async function go(hash: string, ready: string): Promise<void> {
  await openRoute({ page, url: server.url, hash, ready });
}

beforeAll(async () => {
  session = await openSampleSession();
  ({ server, page } = session);
  const origin = new URL(server.url).origin;
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe('web UI', () => {
  it('filters the entity list by type in any case, and says which types exist for an unknown one', async () => {
    await go('#/search?type=PERSON', '#browse-h ~ table tbody tr');
    const types = await page.locator('#browse-h ~ table tbody td:nth-child(2)').allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['person']));
    await go('#/search?type=bogus', '#browse-h ~ .error');
    expect(await page.locator('#browse-h ~ .error').textContent()).toMatch(
      /^No entity has the type "bogus"; the types in this memory are .*person/,
    );
    expect(await page.getByLabel('Type').inputValue()).toBe('bogus');
  });

  it('searches and opens an entity from the results', async () => {
    await go('#/search', 'input[type=search]');
    await page.getByLabel('Search entities, changes and conversations').fill('Tidepool');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#search-results li');
    await page.waitForLoadState('networkidle');
    await shot('search');
    await page
      .locator('#search-results a', { hasText: /^Tidepool$/ })
      .first()
      .click();
    await page.waitForSelector('#timeline li');
    expect(await page.locator('h1').textContent()).toContain('Tidepool');
  });

  it('shows the timeline with the contradiction marked and its source conversation', async () => {
    const contradiction = page.locator('#timeline li.contradiction').first();
    await contradiction.waitFor();
    expect(await contradiction.textContent()).toMatch(/contradiction/i);
    expect(await contradiction.textContent()).toContain('research-notes tool for labs');
    await contradiction.scrollIntoViewIfNeeded();
    await shot('entity');
    await contradiction.locator('a.source-link').click();
    await page.waitForSelector('#conversation li');
    expect(await page.locator('h1').textContent()).toContain('Pivoting Tidepool');
    expect(await page.locator('#conversation').textContent()).toMatch(/lab/i);
    await page.goBack();
    await page.waitForSelector('#timeline li');
    expect(await page.locator('h1').textContent()).toContain('Tidepool');
  });

  it('shows the periods the entity was first seen in and active in', async () => {
    const { periods } = await api<{
      periods: { name: string; during: boolean; mentions: number; changes: number }[];
    }>('api/entities/Tidepool');
    // The sample: Tidepool starts in junior year at UMD and goes on (pivot, funding) in the gap semester.
    expect(periods.map((p) => p.name)).toEqual(['junior year at UMD', 'gap semester in San Francisco']);
    expect(periods.map((p) => p.during)).toEqual([true, false]);
    const items = page.locator('#periods li');
    expect(await items.count()).toBe(2);
    for (const [i, p] of periods.entries()) {
      const text = (await items.nth(i).textContent()) ?? '';
      expect(text).toContain(p.name);
      expect(text).toMatch(new RegExp(`\\b${p.mentions} mentions?\\b`));
      expect(text).toMatch(new RegExp(`\\b${p.changes} changes?\\b`));
      expect(text.includes('first seen here')).toBe(p.during);
    }
  });

  it('draws the graph reached from the entity page, and clicks through to a neighbour', async () => {
    await page.getByRole('link', { name: 'Show in graph' }).click();
    await page.waitForSelector('#graph-nodes li');
    await page.waitForSelector('#graph canvas');
    expect(page.url()).toContain('#/graph/Tidepool');
    expect(await page.locator('h1').textContent()).toBe('Around Tidepool');
    expect(await page.locator('#graph-nodes li').count()).toBeGreaterThan(1);
    await page.waitForLoadState('networkidle');
    await shot('graph');
    const edge = page.locator('#graph-nodes li', { hasText: 'WORKS_ON' }).filter({ hasText: 'Maya Chen' }).first();
    await edge.getByRole('link', { name: 'Maya Chen' }).click();
    await page.waitForSelector('#timeline li');
    expect(await page.locator('h1').textContent()).toContain('Maya Chen');
    // Her relationships with what the conversations said of them (a role), and no bookkeeping (evidence id lists).
    const relationships = (await page.locator('ul.relationships li').allTextContents()).join('\n');
    expect(relationships).toContain('(relation: co-founder)');
    expect(relationships).toMatch(/\(role: information science major\) since \d{4}-\d{2}-\d{2}/);
    expect(relationships).not.toContain('evidenceEpisodes');
    expect(
      await page
        .locator('p.muted', { hasText: /\d+ changes?\b/ })
        .first()
        .textContent(),
    ).not.toMatch(/\b1 changes\b/);
  });

  it('compares two periods', async () => {
    await go('#/diff', 'form');
    await page.getByLabel('From (period or date)').fill('junior year at UMD');
    await page.getByLabel('To (period, date or now)').fill('gap semester in San Francisco');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForSelector('#diff-new');
    expect(await page.locator('#diff-summary').textContent()).toMatch(/junior year at UMD.*gap semester/);
    await shot('diff');
  });

  it('keeps the form when a period is not known, and a suggestion tries again', async () => {
    await go('#/diff', 'form');
    await page.getByLabel('From (period or date)').fill('junior year at UMD');
    await page.getByLabel('To (period, date or now)').fill('my PhD');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForSelector('#diff-result .error');
    // The error sits next to the form, which still holds what was typed (it used to replace the whole view).
    expect(await page.getByLabel('To (period, date or now)').inputValue()).toBe('my PhD');
    expect(await page.locator('#diff-result .error').textContent()).toContain('No period is called "my PhD"');
    await page.locator('#diff-result .suggestions button', { hasText: 'gap semester in San Francisco' }).click();
    await page.waitForSelector('#diff-new');
    expect(await page.getByLabel('To (period, date or now)').inputValue()).toBe('gap semester in San Francisco');
  });

  it('"Skip to content" moves focus to the content and stays on the page', async () => {
    await go('#/diff', 'form');
    await page.focus('a.skip');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('main');
    expect(new URL(page.url()).hash).toBe('#/diff');
  });

  it('shows the world at a date, with the state entities had then', async () => {
    await go('#/snapshot?at=2025-01-15', '#snapshot-summary');
    expect(await page.locator('#snapshot-summary').textContent()).toMatch(/^As of 2025-01-15: /);
    expect(await page.locator('#snapshot-result details.model-text pre').textContent()).toContain(
      'World as of 15 January 2025',
    );
    // On 15 January 2025 Tidepool was a prototype (launched on 27 January, pivoted in March); Firebase was already
    // dropped for Supabase (December 2024); the gap semester had not begun.
    const state = (name: string) => page.locator(`#snapshot-result li[data-entity="${name}"] dl.state`).textContent();
    expect(await state('Tidepool')).toContain('stageprototype');
    expect(await state('Tidepool')).not.toMatch(/launched|pivoted|research-notes/);
    expect(await state('Firebase')).toContain('statusdropped');
    expect(await page.locator('#snapshot-result [data-entity="gap semester in San Francisco"]').count()).toBe(0);
    await shot('snapshot');
  });

  it('answers a chat question with the model and stores a statement', async () => {
    await go('#/chat', 'textarea');
    const box = page.getByLabel('Message (Ctrl+Enter sends)');
    await box.fill('How has Tidepool changed?');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.locator('#chat-log li[data-route=question]');
    await answer.waitFor();
    expect(await answer.locator('.answer-text').textContent()).toContain('research-notes tool for labs');
    expect(await answer.locator('.sources a').count()).toBeGreaterThan(0);
    expect(await answer.locator('.sources > ol a').first().textContent()).toMatch(/^\[1\]/);
    await box.fill('I started learning Rust today.');
    await box.press('Control+Enter');
    const stored = page.locator('#chat-log li[data-route=statement]');
    await stored.waitFor();
    expect(await stored.textContent()).toMatch(/Remembered/);
    expect(await stored.textContent()).toContain('Rust');
    await page.waitForLoadState('networkidle');
    await shot('chat');
    // Really stored: the episode is in the database with the message as its turn, extracted by the (scripted) model.
    const href = (await stored.getByRole('link', { name: 'Open the stored episode' }).getAttribute('href')) ?? '';
    const episodeId = decodeURIComponent(href.replace('#/episode/', ''));
    const db = new Database(server.db, { readonly: true, fileMustExist: true });
    try {
      const row = db
        .prepare(
          "SELECT e.source, json_extract(e.meta, '$.via') AS via, e.extraction, t.role, t.text FROM episodes e JOIN turns t ON t.episode_id = e.id WHERE e.id = ?",
        )
        .all(episodeId);
      expect(row).toEqual([
        {
          source: 'manual',
          via: 'web-chat',
          extraction: 'extracted',
          role: 'user',
          text: 'I started learning Rust today.',
        },
      ]);
    } finally {
      db.close();
    }
    const rust = await api<{ entity: { type: string; state: Record<string, unknown> } }>('api/entities/Rust');
    expect(rust.entity).toMatchObject({ type: 'tool', state: { status: 'learning' } });
  });

  it('answers greetings without storing them, offers the other route, and keeps the conversation across a reload', async () => {
    await go('#/chat', 'textarea');
    const episodes = async () => (await api<{ stats: { episodes: number } }>('api/status')).stats.episodes;
    const before = await episodes();
    const box = page.getByLabel('Message (Ctrl+Enter sends)');
    await box.fill('thanks!');
    await box.press('Control+Enter');
    const hello = page.locator('#chat-log li[data-route=small-talk]');
    await hello.waitFor();
    expect(await hello.textContent()).toContain('Nothing was stored');
    expect(await episodes()).toBe(before);
    // The question just answered can be remembered instead, with one click.
    const asked = page.locator('#chat-log li[data-route=question]').last();
    await asked.getByRole('button', { name: 'Remember it instead' }).click();
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
        ).document.querySelectorAll('#chat-log li[data-route=statement]').length >= 2,
    );
    expect(await episodes()).toBe(before + 1);
    const count = await page.locator('#chat-log > li').count();
    await page.reload();
    await page.waitForSelector('#chat-log li[data-route=small-talk]');
    expect(await page.locator('#chat-log > li').count()).toBe(count);
    await page.getByRole('button', { name: 'Clear this conversation' }).click();
    expect(await page.locator('#chat-log > li').count()).toBe(0);
    await page.reload();
    await page.waitForSelector('textarea');
    expect(await page.locator('#chat-log > li').count()).toBe(0);
  });

  it('previews a sleep cycle (dry run) before applying it', async () => {
    await go('#/maintenance', '#sleep-preview');
    await page.waitForSelector('#health-h');
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.waitForSelector('#sleep-result [data-complete="true"]');
    expect(await page.locator('#sleep-result').textContent()).toContain('nothing written');
    expect(await page.locator('#sleep-apply').isEnabled()).toBe(true);
    // Every phase the server plans has its row, in its order, none left waiting.
    const full = await streamedPreview('full');
    expect(
      await page.locator('#sleep-phases tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-phase'))),
    ).toEqual(full.phases);
    expect(await page.locator('#sleep-phases tr.pending').count()).toBe(0);
    // Each phase folds what it would do: the tiers phase names the entities that move, as links to them.
    const tiers = page.locator('#sleep-phases details.phase', { hasText: 'tiers' });
    expect(await tiers.locator('a').first().isVisible()).toBe(false);
    await tiers.locator('summary').click();
    const moved = tiers.locator('li a').first();
    expect(await moved.isVisible()).toBe(true);
    expect(await moved.getAttribute('href')).toMatch(/^#\/entity\//);
    await shot('sleep');
    // Nothing changed since: a second preview is the plan kept from the first (or planned ahead), and says so, with
    // a way to plan again now.
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.waitForSelector('#sleep-result [data-complete="true"][data-planned="kept"]');
    expect(await page.locator('#sleep-kept').textContent()).toContain('the memory has not changed since');
    await shot('sleep-kept');
    await page.getByRole('button', { name: 'Plan again now' }).click();
    await page.waitForSelector('#sleep-result [data-complete="true"][data-planned="now"]');
    expect(await page.locator('#sleep-kept').count()).toBe(0);
    expect(await page.locator('#sleep-apply').isEnabled()).toBe(true);
    // Switching the scope after the preview disables Apply (it used to apply the newly selected scope), and the
    // disabled button looks disabled (it kept the red of an enabled one).
    await page.getByLabel('Scope').selectOption('daydream');
    await page.waitForSelector('#sleep-stale');
    const apply = page.locator('#sleep-apply');
    expect(await apply.isDisabled()).toBe(true);
    const colour = (): Promise<string> =>
      apply.evaluate(
        (b) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b)
            .backgroundColor,
      );
    expect(await colour()).toBe('rgb(140, 149, 159)');
    // A new preview of the new scope can be applied, and what is applied is that scope.
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.waitForSelector('#sleep-result [data-complete="true"] h3:has-text("daydream")');
    // The server's clock is fixed and nothing changed: the same preview asked again has the same identity.
    const done = await streamedPreview('daydream');
    // Apply sends back exactly the identity of the preview on screen.
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/sleep') && r.method() === 'POST');
    await apply.click();
    expect((await sent).postDataJSON()).toEqual({ scope: 'daydream', dry_run: false, preview_id: done.previewId });
    await page.waitForSelector('#sleep-result [data-dry-run="false"]');
    expect(await page.locator('#sleep-result h3').textContent()).toMatch(/^Applied daydream sleep /);
  });

  it('shows the ingest run of the sample and downloads a backup', async () => {
    const run = page.locator('#ingest-runs tbody tr').first();
    await run.waitFor();
    expect(await run.textContent()).toMatch(/completed/);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download a backup' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^pie-backup-\d{4}-\d{2}-\d{2}\.jsonl\.gz$/);
    await page.waitForSelector('#backup-status:has-text("Backup downloaded.")');
  });

  it('shows progress while a slow sleep preview or backup runs, and a failed backup next to its button', async () => {
    await go('#/maintenance', '#sleep-preview');
    // The server's answer is held back after its first phase (the real lines, passed on by a wrapped fetch) until
    // the test releases it: the page must show what has arrived, say how far it is, and keep Apply off meanwhile.
    await page.evaluate(HOLD_PREVIEW_AFTER_FIRST_PHASE);
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    const card = page.locator('#sleep-result [data-dry-run="true"]');
    await page.waitForSelector('#sleep-phases tbody tr[data-status]');
    const rows = page.locator('#sleep-phases tbody tr');
    expect(await rows.count()).toBeGreaterThan(4);
    expect(await rows.nth(0).getAttribute('data-phase')).toBe('salience');
    expect(await rows.nth(0).getAttribute('data-status')).toBe('planned');
    expect(await rows.nth(1).textContent()).toBe('tiersplanning……');
    expect(await rows.nth(2).textContent()).toContain('waiting');
    expect(await card.getAttribute('data-complete')).toBe('false');
    expect(await page.locator('#sleep-apply').isDisabled()).toBe(true);
    expect(await page.locator('#sleep-preview').isDisabled()).toBe(true);
    const progress = page.locator('#sleep-result .progress[role=status]');
    await progress.waitFor();
    expect(await progress.textContent()).toContain(`Previewing the sleep: 1 of ${await rows.count()} phases planned`);
    await page.evaluate('window.__releasePreview()');
    await page.waitForSelector('#sleep-result [data-complete="true"]');
    expect(await progress.count()).toBe(0);
    expect(await page.locator('#sleep-phases tr.pending').count()).toBe(0);
    expect(await page.locator('#sleep-apply').isEnabled()).toBe(true);
    await page.evaluate('window.fetch = window.__realFetch');
    await page.route('**/api/backup', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'DB_ERROR', message: 'The disk is full.', suggestions: [] } }),
      });
    });
    try {
      await page.getByRole('button', { name: 'Download a backup' }).click();
      await page.waitForSelector('#backup-status progress');
      await page.waitForSelector('#backup-status .error');
      expect(await page.locator('#backup-status').textContent()).toContain('The disk is full.');
      expect(await page.getByRole('button', { name: 'Download a backup' }).isEnabled()).toBe(true);
    } finally {
      await page.unroute('**/api/backup');
    }
  });

  it('labels every control and can be driven from the keyboard', async () => {
    for (const [hash, ready] of [
      ['#/search?q=Maya', '#search-results li'],
      ['#/graph/Tidepool', '#graph-nodes li'],
      ['#/diff', 'form'],
      ['#/snapshot', '#snapshot-summary'],
      ['#/chat', 'textarea'],
      ['#/maintenance', '#health-h'],
    ] as const) {
      await go(hash, ready);
      const unlabelled = await page.$$eval('input, select, textarea', (els) =>
        els
          .filter((e) => {
            // Node's type library has no DOM: `labels` is read structurally.
            const labels = (e as unknown as { labels: { length: number } | null }).labels;
            return (labels?.length ?? 0) === 0 && !e.getAttribute('aria-label');
          })
          .map((e) => e.outerHTML),
      );
      expect(unlabelled, hash).toEqual([]);
    }
    // From the top: the skip link comes first, then the navigation; Enter on a link navigates.
    await go('#/search', 'input[type=search]');
    await page.reload();
    await page.waitForSelector('input[type=search]');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.getByRole('link', { name: 'Chat' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('textarea');
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('TEXTAREA');
  });

  it('made no request to another origin', () => {
    expect(foreign).toEqual([]);
  });
});
