import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../helpers/cli.js';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  ensureWebBuilt,
  requireChromium,
  startSampleServer,
  type SampleServer,
} from './server.js';

/**
 * Where the browser tests save their screenshots: into dist/screenshots/ on every run, and into docs/screenshots/
 * (the committed ones docs/web.md shows) when PIE_UPDATE_SCREENSHOTS=1 or when they are missing there. Entity ids
 * are random, so ties in an ordering can draw differently from run to run; writing docs/ only on request keeps the
 * tree clean.
 */
const DOCS_SHOTS = join(ROOT, 'docs', 'screenshots');
export const SHOTS =
  process.env.PIE_UPDATE_SCREENSHOTS === '1' || !existsSync(join(DOCS_SHOTS, 'entity.png'))
    ? DOCS_SHOTS
    : join(ROOT, 'dist', 'screenshots');

export const WAIT = 30_000;

/** Opens `hash` and waits (up to `timeout`, default WAIT) until that address's content has rendered and `ready` is there. */
export async function openRoute(input: {
  page: Page;
  url: string;
  hash: string;
  ready: string;
  timeout?: number;
}): Promise<void> {
  const { page, hash } = input;
  const timeout = input.timeout ?? WAIT;
  await page.goto(`${input.url}${hash}`);
  await waitForRoute(page, hash, timeout);
  await page.waitForSelector(input.ready, { timeout });
  await page.waitForLoadState('networkidle');
}

/** A hash change keeps the old view in the page until the new one renders: waits for this address's content. */
export async function waitForRoute(page: Page, hash: string, timeout = WAIT): Promise<void> {
  await page.waitForFunction(
    (want) => {
      // Node's type library has no DOM: the page's `main` is read structurally.
      type Main = { dataset: { route?: string }; hasAttribute(name: string): boolean };
      const doc = (globalThis as unknown as { document: { getElementById(id: string): Main | null } }).document;
      const main = doc.getElementById('main');
      return main?.dataset.route === want && !main.hasAttribute('aria-busy');
    },
    hash,
    { timeout },
  );
}

/** The real `pie serve` on the sample and one Chromium page (1280 × 860) on it. */
export interface SampleSession {
  server: SampleServer;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Builds the UI when stale, starts the sample server (after `seed`, when given, has added to its database) and
 * Chromium; the screenshot folder exists after it.
 */
export async function openSampleSession(
  options: { seed?: (db: string) => Promise<void> } = {},
): Promise<SampleSession> {
  requireChromium();
  mkdirSync(SHOTS, { recursive: true });
  await ensureWebBuilt();
  const server = await startSampleServer(options);
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    await server.stop();
    throw error;
  }
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(WAIT);
  return {
    server,
    browser,
    page,
    close: async () => {
      await browser.close();
      await server.stop();
    },
  };
}

/** How many pixels the page is wider than the window (0: nothing scrolls sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}

/** The elements that reach past the window's right edge (for a failing overflow check's message). */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type El = {
      tagName: string;
      id: string;
      className: unknown;
      children: { length: number };
      getBoundingClientRect(): { right: number; width: number };
    };
    const doc = (
      globalThis as unknown as {
        document: { documentElement: { clientWidth: number }; querySelectorAll(s: string): Iterable<El> };
      }
    ).document;
    const limit = doc.documentElement.clientWidth;
    return [...doc.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > limit + 1)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.split(' ').join('.')}` : ''} (${Math.round(e.getBoundingClientRect().width)} px)`,
      )
      .slice(0, 8);
  });
}

/** Every console error and uncaught page error from now on, collected into the returned list. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

const SAMPLE_A = encodeURIComponent('junior year at UMD');
const SAMPLE_B = encodeURIComponent('gap semester in San Francisco');

/** Each view of the UI on the bundled sample: its address and what shows it has rendered. */
export const EVERY_VIEW: readonly (readonly [hash: string, ready: string])[] = [
  ['#/timeline', '#tl-lanes li'],
  ['#/search?q=Tidepool', '#search-results li'],
  ['#/entity/Tidepool', '#timeline li'],
  ['#/graph/Tidepool', '#graph-nodes li'],
  [`#/diff?a=${SAMPLE_A}&b=${SAMPLE_B}`, '#diff-new'],
  ['#/snapshot?at=2025-01-15', '#snapshot-summary'],
  ['#/chat', 'textarea'],
  ['#/maintenance', '#health-h'],
  ['#/inbox', 'main h1'],
];
