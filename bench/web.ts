import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { EVERY_VIEW, waitForRoute } from '../test/browser/page.js';
import { CHROMIUM, CHROMIUM_ARGS, ensureWebBuilt, requireChromium } from '../test/browser/server.js';
import { startWorldServer } from '../test/browser/world.js';
import { percentile } from './query.js';
import { machineLine, mdTable, writeSection } from './report.js';

const RUNS = 3;
const TIMEOUT = 180_000;
const TARGET_MS = 1000;

/**
 * One typical interaction of a view: what it does, and doing it until its result is on the page. An interaction
 * whose result arrives in parts (the sleep preview, phase by phase) returns when its first part was on the page
 * (ms after it started), and `first` names that part; one that needs a step before the action it times returns
 * `whole` too (else the whole is the time `run` took).
 */
interface Interaction {
  what: string;
  first?: string;
  run(page: Page): Promise<void | { first: number; whole?: number }>;
}

/** Waits until the address contains `part` and its content has rendered, then for `ready`. */
async function routed(page: Page, part: string, ready: string): Promise<void> {
  // Expressions, not functions: they run in the page (Node's type library has no DOM).
  await page.waitForFunction(`location.hash.includes(${JSON.stringify(part)})`, undefined, { timeout: TIMEOUT });
  await waitForRoute(page, String(await page.evaluate('location.hash')), TIMEOUT);
  await page.waitForSelector(ready, { timeout: TIMEOUT });
}

/** By the view's route name; a view added later without one here is still timed to its first paint. */
const INTERACTIONS: Record<string, Interaction> = {
  search: {
    what: 'type a name, submit',
    run: async (page) => {
      await page.getByLabel('Search entities, changes and conversations').fill('Maya Chen');
      await page.keyboard.press('Enter');
      await routed(page, 'q=Maya', '#search-results li');
    },
  },
  entity: {
    what: 'open a related entity',
    run: async (page) => {
      const link = page.locator('main a[href^="#/entity/"]').first();
      const href = (await link.getAttribute('href')) ?? '';
      await link.click();
      await routed(page, href.slice(1), '#timeline li');
    },
  },
  graph: {
    what: 'find a name in the graph (focus)',
    run: async (page) => {
      await page.getByLabel('Find in graph').fill('Maya Chen');
      await page.getByRole('button', { name: 'Focus' }).click();
      await page.locator('#graph-status', { hasText: 'Focused on' }).waitFor({ timeout: TIMEOUT });
    },
  },
  diff: {
    what: 'change the second period, compare',
    run: async (page) => {
      await page.getByLabel('To (period, date or now)').fill('senior year at UMD');
      await page.keyboard.press('Enter');
      await routed(page, 'senior', '#diff-new');
    },
  },
  snapshot: {
    what: 'change the date, show',
    run: async (page) => {
      await page.getByLabel('At (date, month or period; empty = now)').fill('2024-06-01');
      await page.keyboard.press('Enter');
      await routed(page, '2024-06-01', '#snapshot-summary');
    },
  },
  chat: {
    what: 'ask a question (no model: the context)',
    run: async (page) => {
      const replies = await page.locator('.msg.pie').count();
      await page.locator('textarea').fill('How has Tidepool changed?');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.msg.pie').nth(replies).waitFor({ timeout: TIMEOUT });
    },
  },
  timeline: {
    what: 'zoom in (redraw the marks)',
    run: async (page) => {
      // The drawing on screen is replaced by the zoomed one: wait until it is gone and a new one is there.
      await page.evaluate(`document.querySelector('#tl-scroll > *')?.setAttribute('data-before-zoom', '')`);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.locator('#tl-scroll > [data-before-zoom]').waitFor({ state: 'detached', timeout: TIMEOUT });
      await page.locator('#tl-scroll > *').first().waitFor({ timeout: TIMEOUT });
    },
  },
  maintenance: {
    what: 'preview a sleep (dry run; the plan kept ahead when the memory is unchanged)',
    first: 'first phase shown',
    run: async (page) => {
      const started = performance.now();
      await page.locator('#sleep-preview').click();
      // The preview streams in: its first planned phase on the page, then the whole preview (Apply possible).
      await page.waitForSelector('#sleep-phases tbody tr[data-status]', { timeout: TIMEOUT });
      const first = performance.now() - started;
      await page.waitForSelector('#sleep-result [data-complete="true"]', { timeout: TIMEOUT });
      return { first };
    },
  },
};

/**
 * The sleep preview planned on the click, as right after the memory changed (no plan kept): "Plan again now"
 * beside a kept preview, until the new plan's first phase and then all of it are on the page.
 */
const REPLAN: Interaction = {
  what: 'plan again now (a preview planned on request, as after a change)',
  first: 'first phase shown',
  run: async (page) => {
    await page.locator('#sleep-preview').click();
    await page.waitForSelector('#sleep-result [data-complete="true"]', { timeout: TIMEOUT });
    if ((await page.locator('#sleep-replan').count()) === 0) throw new Error('the preview was not a kept plan');
    const started = performance.now();
    await page.locator('#sleep-replan').click();
    await page.waitForSelector('#sleep-result [data-planned="now"] #sleep-phases tbody tr[data-status]', {
      timeout: TIMEOUT,
    });
    const first = performance.now() - started;
    await page.waitForSelector('#sleep-result [data-planned="now"][data-complete="true"]', { timeout: TIMEOUT });
    return { first, whole: performance.now() - started };
  },
};

interface Row {
  hash: string;
  paint: number[];
  /** The longest API request of each timed load (the server's share; requests may overlap). */
  api: number[];
  apiPaths: Set<string>;
  what: string;
  interaction: number[];
  /** When the interaction's result arrives in parts: when its first part was on the page. */
  first: number[];
  firstWhat: string | null;
}

async function measureView(page: Page, url: string, hash: string, ready: string, chosen?: Interaction): Promise<Row> {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  const interaction = chosen ?? INTERACTIONS[name];
  const row: Row = {
    hash,
    paint: [],
    api: [],
    apiPaths: new Set(),
    what: interaction?.what ?? '—',
    interaction: [],
    first: [],
    firstWhat: interaction?.first ?? null,
  };
  // One warm-up load (the browser's cache and the database's pages), then RUNS timed ones.
  for (let run = 0; run <= RUNS; run++) {
    await page.goto('about:blank');
    const started = performance.now();
    await page.goto(`${url}${hash}`);
    await waitForRoute(page, hash, TIMEOUT);
    await page.waitForSelector(ready, { timeout: TIMEOUT });
    const painted = performance.now() - started;
    const [apiMs, apiPath] = (await page.evaluate(
      `performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/'))
        .map((e) => [e.duration, new URL(e.name).pathname]).sort((a, b) => b[0] - a[0])[0] ?? [0, '']`,
    )) as [number, string];
    let acted: number | null = null;
    let first: number | undefined;
    if (interaction) {
      const t = performance.now();
      const parts = await interaction.run(page);
      acted = parts?.whole ?? performance.now() - t;
      first = parts?.first;
    }
    if (run === 0) continue;
    row.paint.push(painted);
    row.api.push(apiMs);
    row.apiPaths.add(apiPath);
    if (acted !== null) row.interaction.push(acted);
    if (typeof first === 'number') row.first.push(first);
  }
  return row;
}

const ms = (values: number[]): string => {
  if (values.length === 0) return '—';
  const f = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);
  return `${f(percentile(values, 50))} (max ${f(Math.max(...values))})`;
};
const within = (values: number[]): boolean => values.length === 0 || percentile(values, 50) <= TARGET_MS;

/** The interaction's latency; for one that arrives in parts, its first part and the whole. */
function latency(r: Row): string {
  if (r.first.length === 0) return ms(r.interaction);
  return `${r.firstWhat ?? 'first part'}: ${ms(r.first)}; whole: ${ms(r.interaction)}`;
}

/** Within the target: yes or no; for an interaction in parts, its first part and its whole said apart. */
function verdict(r: Row): string {
  const yes = (ok: boolean): string => (ok ? 'yes' : '**no**');
  if (r.first.length === 0) return yes(within(r.paint) && within(r.interaction));
  return `first part ${yes(within(r.paint) && within(r.first))}; whole ${yes(within(r.paint) && within(r.interaction))}`;
}

/** One full sleep preview through the JSON route, from the request until its whole answer is read. */
async function timeJsonPreview(url: string, replan: boolean): Promise<number> {
  const started = performance.now();
  const res = await fetch(new URL('api/sleep', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scope: 'full', dry_run: true, replan }),
  });
  if (!res.ok) throw new Error(`POST /api/sleep: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { kept: boolean };
  if (body.kept === replan) throw new Error(`POST /api/sleep with replan ${replan} answered kept ${body.kept}`);
  return performance.now() - started;
}

/**
 * Resolves with the ms from now until the server says it keeps a full sleep's preview planned ahead (GET
 * /api/sleep/kept, looked at every 250 ms), or null when `stop` is aborted first.
 */
async function timeToKept(url: string, stop: AbortSignal): Promise<number | null> {
  const started = performance.now();
  while (!stop.aborted) {
    const res = await fetch(new URL('api/sleep/kept', url));
    if (((await res.json()) as { kept: boolean }).kept) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}

/**
 * `npm run bench -- web`: every view of the UI (EVERY_VIEW, so views added later are included) in Chromium on the
 * 20,000-entity world, served read-only by `pie serve`: time to first meaningful paint (from navigation until the
 * view's content for that address has rendered and its ready element is there) and the latency of one typical
 * interaction, median of RUNS after a warm-up.
 */
export async function benchWeb(): Promise<void> {
  requireChromium();
  await ensureWebBuilt();
  const startLoad = loadavg()[0] ?? 0;
  const { server, world } = await startWorldServer();
  const stopWaiting = new AbortController();
  const kept = timeToKept(server.url, stopWaiting.signal);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const rows: Row[] = [];
  const jsonPreview: number[] = [];
  const jsonReplan: number[] = [];
  let keptAfter: number | null = null;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    // The views are measured while the server plans the sleep ahead in its thread (as a user would meet it).
    for (const [hash, ready] of EVERY_VIEW) {
      console.log(`  ${hash}`);
      rows.push(await measureView(page, server.url, hash, ready));
    }
    rows.push(await measureView(page, server.url, '#/maintenance', '#health-h', REPLAN));
    // For comparison: the same preview as one JSON answer (what the view waited for before it streamed).
    for (let run = 0; run < RUNS; run++) {
      jsonPreview.push(await timeJsonPreview(server.url, false));
      jsonReplan.push(await timeJsonPreview(server.url, true));
    }
  } finally {
    stopWaiting.abort();
    keptAfter = await kept.catch(() => null);
    await browser.close();
    await server.stop();
  }
  const slow = rows.filter((r) => !within(r.paint) || !within(r.interaction));
  const parted = rows.filter((r) => r.first.length > 0);
  const table = mdTable(
    ['view', 'first meaningful paint', 'longest API request', 'interaction', 'latency', 'within 1 s'],
    rows.map((r) => [
      `\`${decodeURIComponent(r.hash)}\``,
      ms(r.paint),
      `${ms(r.api)} ${[...r.apiPaths].map((x) => `\`${x}\``).join(', ')}`,
      r.what,
      latency(r),
      verdict(r),
    ]),
  );
  const markdown = [
    '## Web UI on the 20,000-entity world',
    '',
    `Every view of the UI in Chromium (\`/usr/bin/chromium\`, headless, 1280 × 860) against \`pie serve --read-only\` on the`,
    `synthetic world (${world.stats.entities.toLocaleString('en-US')} entities, ${world.stats.transitions.toLocaleString('en-US')} transitions,`,
    `${world.stats.episodes.toLocaleString('en-US')} episodes; \`bench/generate/world.ts\`). First meaningful paint: from navigation until the`,
    'view has rendered the content of its address (`#main[data-route]` equals the hash, nothing busy) and its ready',
    'element is there. Interaction: one typical action on the rendered view until its result is on the page. Median of',
    `${RUNS} runs after a warm-up (max in brackets). Target: every view usable within 1 s.`,
    '',
    table,
    '',
    slow.length === 0
      ? 'Every view meets the target.'
      : `Over the target: ${slow.map((r) => `\`${r.hash.split('?')[0]}\``).join(', ')}. Where the longest API request is most of the paint, the time is the server's (the same query functions as the CLI; see docs/web.md, Large worlds).`,
    `The server keeps a full sleep's preview planned ahead in a worker thread once the memory is still (docs/web.md, Sleep): here it was kept ${keptAfter === null ? 'NOT before the run ended' : `${(keptAfter / 1000).toFixed(1)} s after the server started`}, while the views above were being measured. A preview of the unchanged memory shows that plan; "plan again now" plans on the click, as a preview right after the memory changed does.`,
    `For comparison, the same full preview as one JSON answer (\`POST /api/sleep\` with \`dry_run\`; server time and transfer, no rendering): ${ms(jsonPreview)} kept, ${ms(jsonReplan)} planned on request (\`replan\`).`,
    ...parted.map(
      (r) =>
        `\`${r.hash.split('?')[0]}\`, ${r.what}: the preview streams phase by phase (\`POST /api/sleep/preview\`); "${r.firstWhat ?? 'first part'}" is from the click until the first planned phase is on the page, "whole" until every phase is and Apply can be pressed. ${within(r.first) ? 'The first results are within 1 s' : 'Even the first results are NOT within 1 s'}; the whole preview is ${within(r.interaction) ? 'within 1 s too' : 'NOT within 1 s'} (a progress bar counts the phases after 300 ms).`,
    ),
    '',
    `Run with \`npm run build && npm run bench -- web\`. ${machineLine()}; ${startLoad.toFixed(1)} when it started.`,
  ].join('\n');
  writeSection({ name: 'web', markdown });
  console.log(markdown);
}
