import { join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEAR_MISS, seedInboxDb } from '../helpers/inbox.js';
import { openSampleSession, SHOTS, waitForRoute, type SampleSession, horizontalOverflow } from './page.js';

/**
 * The Inbox in Debian's Chromium against the real `pie serve` on the bundled sample (ingested offline), with what
 * the sample lacks (a stale-entity sleep task and a junk entity) seeded through the store before the server starts.
 * One decision per section, an undo, an error shown next to the buttons that caused it, buttons disabled while a
 * decision runs; no console error and no horizontal scroll on a 390 px phone.
 */
const PHONE = { width: 390, height: 844 };

let session: SampleSession;
let page: Page;
const consoleErrors: string[] = [];
/** The one request a step answers with an error on purpose (Chromium logs the failed load as a console error). */
let expectedFailure: string | null = null;

async function api<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(path, session.server.url), {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function openInbox(): Promise<void> {
  if (page.url().endsWith('#/inbox')) await page.reload();
  else await page.goto(`${session.server.url}#/inbox`);
  await waitForRoute(page, '#/inbox');
  await page.waitForSelector('#inbox-audit .inbox-item');
  await page.waitForLoadState('networkidle');
}

async function noHorizontalScroll(): Promise<void> {
  expect(await horizontalOverflow(page), 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

/** The card of a section about `title` (an entity's name; both names of a merge pair). */
function card(sectionId: string, title: string): Locator {
  return page.locator(`#${sectionId} li.inbox-item[data-title=${JSON.stringify(title)}]`);
}

async function decide(item: Locator, button: string | RegExp): Promise<string> {
  await item.getByRole('button', { name: button }).click();
  const done = item.locator('.inbox-result');
  await done.waitFor();
  return (await done.textContent()) ?? '';
}

beforeAll(async () => {
  session = await openSampleSession({
    seed: async (db) => {
      await seedInboxDb(db);
    },
  });
  page = session.page;
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const where = m.location().url;
    if (expectedFailure !== null && where.includes(expectedFailure)) return;
    consoleErrors.push(`${m.text()} (${where})`);
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe('the Inbox', { timeout: 90_000 }, () => {
  it('is linked from the navigation with the count of what waits, and lists every section', async () => {
    await page.goto(`${session.server.url}#/search`);
    const link = page.getByRole('link', { name: /^Inbox/ });
    await expect.poll(() => link.textContent()).toMatch(/Inbox\s*7/);
    await link.click();
    await openInbox();
    expect(await page.title()).toBe('Inbox — PIE');
    expect(await link.getAttribute('aria-current')).toBe('page');
    for (const [id, count] of [
      ['inbox-contradictions', '5'],
      ['inbox-merges', '1'],
      ['inbox-tasks', '1'],
    ] as const) {
      expect(await page.locator(`#${id}-h .badge`).textContent(), id).toBe(count);
    }
    const maya = card('inbox-contradictions', 'Maya Chen');
    expect(await maya.locator('.claim').first().textContent()).toContain('role: co-founder');
    expect(await maya.getByRole('link', { name: 'Co-founder agreement basics' }).getAttribute('href')).toMatch(
      /^#\/episode\//,
    );
    await page.screenshot({ path: join(SHOTS, 'inbox.png') });
  });

  it('on a phone: keep the old claim, undo it, then keep the new one', async () => {
    await page.setViewportSize(PHONE);
    await noHorizontalScroll();
    const tidepool = card('inbox-contradictions', 'Tidepool');
    expect(await decide(tidepool, 'Keep the old one')).toContain('Tidepool: kept the older claim');
    // Focus stays in the card, on what was done, so the keyboard's next stop is Undo.
    expect(await tidepool.locator('.inbox-result:focus').count()).toBe(1);
    const entity = await api<{ entity: { state: Record<string, string> } }>('api/entities/Tidepool');
    expect(entity.entity.state.focus).toBe('a study-group app for students');
    await expect.poll(() => page.locator('#inbox-count').textContent()).toBe('6');
    await tidepool.getByRole('button', { name: 'Undo' }).click();
    // The section reloads with the contradiction open again.
    await card('inbox-contradictions', 'Tidepool').getByRole('button', { name: 'Keep the new one' }).waitFor();
    const back = await api<{ entity: { state: Record<string, string> } }>('api/entities/Tidepool');
    expect(back.entity.state.focus).toBe('a research-notes tool for labs');
    await expect.poll(() => page.locator('#inbox-count').textContent()).toBe('7');
    expect(await decide(card('inbox-contradictions', 'Firebase'), 'Keep the new one')).toContain(
      'Firebase: kept the newer claim',
    );
    expect(await page.locator('#inbox-contradictions-h .badge').textContent()).toBe('4');
    await noHorizontalScroll();
  });

  it('shows the error next to the buttons when the contradiction was settled elsewhere, keeping them usable', async () => {
    const maya = card('inbox-contradictions', 'Maya Chen');
    const open = await api<{ contradictions: { items: { id: string; entity: { name: string } }[] } }>(
      'api/inbox?section=contradictions',
    );
    const id = open.contradictions.items.find((c) => c.entity.name === 'Maya Chen')?.id;
    await api('api/inbox/contradictions', { id, keep: 'both' });
    expectedFailure = '/api/inbox/contradictions';
    await maya.getByRole('button', { name: 'Keep the new one' }).click();
    const alert = maya.locator('.inbox-status [role=alert]');
    await alert.waitFor();
    expectedFailure = null;
    expect(await alert.textContent()).toContain('already been resolved');
    expect(await maya.getByRole('button', { name: 'Keep the new one' }).isEnabled()).toBe(true);
  });

  it('keeps a merge pair apart', async () => {
    const pair = card('inbox-merges', `${NEAR_MISS} / University of Maryland`);
    expect(await pair.getByRole('button', { name: /^Merge into/ }).count()).toBe(2);
    expect(await decide(pair, 'Keep apart')).toContain('are kept apart');
    await noHorizontalScroll();
  });

  it('disables the buttons while a sleep task is being closed, then marks it done', async () => {
    const task = card('inbox-tasks', '"Maya Chen" was retrieved but not referenced for 100 days');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/inbox/tasks', async (route) => {
      await held;
      await route.continue();
    });
    const request = page.waitForRequest((r: Request) => r.url().endsWith('/api/inbox/tasks'));
    await task.getByRole('button', { name: 'Mark done' }).click();
    await request;
    expect(await task.getByRole('button', { name: 'Working…' }).isDisabled()).toBe(true);
    expect(await task.getByRole('button', { name: 'Dismiss' }).isDisabled()).toBe(true);
    release();
    await task.locator('.inbox-result').waitFor();
    expect(await task.locator('.inbox-result').textContent()).toContain('Sleep task marked done');
    await page.unroute('**/api/inbox/tasks');
  });

  it('applies the safe fix of an audit finding and marks an overdue commitment kept', async () => {
    expect(await decide(card('inbox-audit', 'they'), 'Archive')).toContain('"they" archived.');
    expect(await decide(card('inbox-audit', 'finish the pitch deck'), 'Mark kept')).toContain(
      '"finish the pitch deck" marked kept.',
    );
    const log = await api<{ items: { kind: string; status: string }[] }>('api/maintenance?limit=10');
    expect(log.items.filter((e) => e.status === 'completed').map((e) => e.kind)).toEqual(
      expect.arrayContaining(['inbox', 'audit']),
    );
    await noHorizontalScroll();
  });

  it('after a reload shows what is left, with no horizontal scroll and no console error', async () => {
    await openInbox();
    await page.screenshot({ path: join(SHOTS, 'inbox-phone.png'), fullPage: false });
    expect(await page.locator('#inbox-contradictions-h .badge').textContent()).toBe('3');
    expect(await page.locator('#inbox-merges .inbox-empty').textContent()).toContain('No merge pairs to review');
    expect(await page.locator('#inbox-tasks .inbox-empty').textContent()).toContain('No sleep tasks waiting');
    await noHorizontalScroll();
    for (const control of await page.locator('#main button, #main a').all()) {
      expect((await control.textContent())?.trim() || (await control.getAttribute('aria-label'))).toBeTruthy();
    }
    expect(consoleErrors).toEqual([]);
  });
});
