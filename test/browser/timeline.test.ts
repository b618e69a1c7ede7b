import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectConsoleErrors,
  horizontalOverflow,
  openRoute,
  openSampleSession,
  overflowingElements,
  type SampleSession,
  SHOTS,
  waitForRoute,
} from './page.js';

/**
 * The life timeline (the home view) and the entity page's attribute swimlanes in Debian's Chromium against the real
 * `pie serve` on the bundled sample ingested offline: bands for the sample's periods, lanes of the most important
 * entities with their changes as marks, the Tidepool pivot marked as a contradiction, zoom by button and key, the
 * filters, a preview of the source turn on hover, click-through to the entity; a 390 px phone without sideways
 * scroll; no console error.
 */

let session: SampleSession;
let page: Page;
let consoleErrors: string[] = [];

beforeAll(async () => {
  session = await openSampleSession();
  page = session.page;
  consoleErrors = collectConsoleErrors(page);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

const go = (hash: string, ready = '#tl-lanes li, #tl-empty') =>
  openRoute({ page, url: session.server.url, hash, ready });

async function canvasWidth(): Promise<number> {
  return page.locator('.tl-canvas').evaluate((e) => (e as unknown as { offsetWidth: number }).offsetWidth);
}

describe('Life timeline', () => {
  it('is the home page: periods as bands, entities as lanes, changes as marks, contradictions marked', async () => {
    await page.goto(session.server.url);
    await waitForRoute(page, '');
    await page.waitForSelector('#tl-lanes li');
    expect(await page.title()).toBe('Timeline — PIE');
    expect(await page.locator('#nav a[aria-current="page"]').textContent()).toBe('Timeline');
    expect(await page.locator('#nav a[href="#/search"]').count()).toBe(1);

    const bands = await page
      .locator('#tl-bands li')
      .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { period: string } }).dataset.period));
    expect(bands).toEqual(expect.arrayContaining(['junior year at UMD', 'gap semester in San Francisco']));
    const lanes = await page.locator('#tl-lanes > li').count();
    expect(lanes).toBeGreaterThan(5);
    expect(lanes).toBeLessThanOrEqual(30);
    const tidepool = page.locator('#tl-lanes > li[data-entity="Tidepool"]');
    expect(await tidepool.locator('.tl-mark').count()).toBeGreaterThan(2);
    const pivot = tidepool.locator('.tl-mark.contra');
    expect(await pivot.count()).toBeGreaterThan(0);
    expect(await pivot.first().getAttribute('aria-label')).toMatch(/^Tidepool, 20\d\d-\d\d-\d\d: .*\(contradiction/);
    expect(await pivot.first().textContent()).toBe('!');
    expect(await page.locator('#tl-summary').textContent()).toMatch(/\d+ contradictions? \(marked !\)/);
  });

  it('zooms from years to days with the buttons and the keyboard', async () => {
    await go('#/timeline');
    // The sample spans 14 months: fitted to the window, the axis is labelled in months.
    expect(await page.locator('#tl-zoom-label').textContent()).toBe('Zoom: months');
    expect(await page.getByRole('button', { name: 'Years' }).getAttribute('aria-pressed')).toBe('true');
    const fitted = await canvasWidth();
    expect(fitted).toBeLessThanOrEqual(1280);
    await page.getByRole('button', { name: 'Days' }).click();
    expect(await page.locator('#tl-zoom-label').textContent()).toBe('Zoom: days');
    expect(await page.locator('.tl-tick').first().textContent()).toMatch(/^\d{1,2}$|^[A-Z][a-z]{2} \d{4}$/);
    expect(await canvasWidth()).toBeGreaterThan(fitted * 10);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    expect(await page.locator('#tl-zoom-label').textContent()).toBe('Zoom: months');
    // Keyboard: + and − on the timeline region.
    await page.locator('#tl-scroll').focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('-');
    // Never narrower than the window: the whole range fits.
    expect(await canvasWidth()).toBe(fitted);
    expect(await page.getByRole('button', { name: 'Years' }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('+');
    expect(await canvasWidth()).toBeGreaterThan(fitted * 1.5);
  });

  it('zooms with a two-finger pinch, keeping the moment under the fingers in place', async () => {
    await go('#/timeline');
    // The same address as the test before: the view stays as that test left it, so fit it first.
    await page.getByRole('button', { name: 'Years' }).click();
    const fitted = await canvasWidth();
    const box = await page.locator('#tl-scroll').boundingBox();
    if (!box) throw new Error('no timeline');
    // Touches through the DevTools protocol (real touch events; Chromium makes them pointer events of type touch).
    const cdp = await page.context().newCDPSession(page);
    const x = Math.round(box.x + box.width * 0.3);
    const y = Math.round(box.y + Math.min(box.height / 2, 120));
    const fingers = (apart: number) => [
      { x: x - apart / 2, y, id: 0 },
      { x: x + apart / 2, y, id: 1 },
    ];
    /** The share of the drawn range under the fingers (PAD is 24 px each side). */
    const under = () =>
      page.locator('#tl-scroll').evaluate((el, fx) => {
        const e = el as unknown as { scrollLeft: number; firstElementChild: { offsetWidth: number } };
        return (e.scrollLeft + fx - 24) / (e.firstElementChild.offsetWidth - 48);
      }, x - box.x);
    const pinch = async (from: number, to: number) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(from) });
      for (let i = 1; i <= 8; i++) {
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: fingers(from + ((to - from) * i) / 8),
        });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    const share = await under();
    await pinch(60, 240);
    // Four times as far apart: about four times the scale (redrawn on the next frame).
    await expect.poll(canvasWidth).toBeGreaterThan(fitted * 3);
    expect(await canvasWidth()).toBeLessThan(fitted * 5);
    expect(Math.abs((await under()) - share)).toBeLessThan(0.01);
    expect(await page.getByRole('button', { name: 'Years' }).getAttribute('aria-pressed')).toBe('false');
    // Pinching in goes back, never narrower than the window.
    await pinch(240, 20);
    await expect.poll(canvasWidth).toBe(fitted);
    expect(await page.getByRole('button', { name: 'Years' }).getAttribute('aria-pressed')).toBe('true');
    await cdp.detach();
  });

  it('previews where a change was said on hover, moves along a lane with the arrows, opens the entity', async () => {
    await go('#/timeline?limit=12');
    expect(await page.locator('#tl-lanes > li').count()).toBe(12);
    expect(await page.getByLabel('Lanes').inputValue()).toBe('12');
    const pivot = page.locator('#tl-lanes > li[data-entity="Tidepool"] .tl-mark.contra').first();
    await pivot.hover();
    const preview = page.locator('#tl-preview');
    await preview.locator('.tl-turn').waitFor();
    expect(await preview.locator('strong').textContent()).toBe('Tidepool');
    expect(await preview.textContent()).toContain('⚠ contradiction');
    expect((await preview.locator('.tl-turn').textContent())?.length).toBeGreaterThan(20);
    expect(await preview.locator('a.source-link').getAttribute('href')).toMatch(/^#\/episode\/.+\?seq=\d+$/);
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'timeline.png'), fullPage: false });
    await page.getByRole('button', { name: 'Close the preview' }).click();
    expect(await preview.isHidden()).toBe(true);

    const marks = page.locator('#tl-lanes > li[data-entity="Tidepool"] .tl-mark');
    await marks.first().focus();
    await page.keyboard.press('ArrowRight');
    expect(
      await marks
        .nth(1)
        .evaluate(
          (e) => e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        ),
    ).toBe(true);
    expect(await marks.nth(1).getAttribute('tabindex')).toBe('0');
    // Links carry the entity's id beside its name: another entity may share the name.
    const markHref = await marks.nth(1).getAttribute('href');
    expect(markHref).toMatch(/^#\/entity\/Tidepool\?id=[^&]+$/);
    await page.keyboard.press('Enter');
    await waitForRoute(page, markHref ?? '');
    await page.waitForSelector('#timeline li');
    await page.goBack();
    await waitForRoute(page, '#/timeline?limit=12');
    const label = page.locator('#tl-lanes > li[data-entity="Maya Chen"] .tl-lane-label');
    const labelHref = await label.getAttribute('href');
    expect(labelHref).toMatch(new RegExp(`^#/entity/${encodeURIComponent('Maya Chen')}\\?id=`));
    await label.click();
    await waitForRoute(page, labelHref ?? '');
  });

  it('filters by kind, attribute and period', async () => {
    await go('#/timeline');
    await page.getByLabel('Kind').selectOption('project');
    await waitForRoute(page, '#/timeline?type=project');
    const types = await page.locator('#tl-lanes .tl-lane-label .muted').allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t.trim().startsWith('project'))).toBe(true);

    await go('#/timeline?attribute=stage');
    const names = await page
      .locator('#tl-lanes > li')
      .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { entity: string } }).dataset.entity));
    expect(names).toContain('Tidepool');
    // Tidepool's stage: first seen, prototype, launched, pivoted; the focus contradiction is not a stage change.
    const tidepool = page.locator('#tl-lanes > li[data-entity="Tidepool"]');
    expect(await tidepool.locator('.tl-mark').count()).toBe(4);
    expect(await tidepool.locator('.tl-mark.contra').count()).toBe(0);
    expect(await page.getByLabel('Attribute').inputValue()).toBe('stage');

    await go('#/timeline');
    await page.locator('#tl-bands li[data-period="gap semester in San Francisco"] a').click();
    const hash = `#/timeline?period=${encodeURIComponent('gap semester in San Francisco')}`;
    await waitForRoute(page, hash);
    expect(await page.locator('#tl-summary').textContent()).toMatch(/^gap semester in San Francisco: 2025-/);
    expect(await page.getByLabel('Period', { exact: true }).inputValue()).toBe('gap semester in San Francisco');
  });

  it('fits a 390 px phone: the timeline scrolls inside its box, the page does not', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await go('#/timeline');
      await page.getByRole('button', { name: 'Days' }).click();
      expect(await horizontalOverflow(page), (await overflowingElements(page)).join(', ')).toBe(0);
      await page.getByRole('button', { name: 'Years' }).click();
      await page.locator('.tl-toolbar').evaluate((e) => (e as unknown as { scrollIntoView(): void }).scrollIntoView());
      await page.screenshot({ path: join(SHOTS, 'timeline-phone.png'), fullPage: false });
      expect(await horizontalOverflow(page), (await overflowingElements(page)).join(', ')).toBe(0);
      // Fitted to the window, it stays fitted when the window widens.
      const narrow = await canvasWidth();
      await page.setViewportSize({ width: 800, height: 844 });
      await page.waitForFunction(
        (w) =>
          (
            globalThis as unknown as { document: { querySelector(s: string): { offsetWidth: number } } }
          ).document.querySelector('.tl-canvas').offsetWidth > w,
        narrow,
      );
      expect(await canvasWidth()).toBeLessThanOrEqual(800);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});

describe('Entity page swimlanes', () => {
  it('shows how each attribute changed, oldest or newest first', async () => {
    await go('#/entity/Tidepool', '#swimlanes li');
    const stage = page.locator('#swimlanes > li[data-attribute="stage"]');
    const values = await stage.locator('.swim-values li').allTextContents();
    expect(values.length).toBeGreaterThan(1);
    expect(values.at(-1)).toMatch(/now/);
    expect(await stage.locator('.swim-seg.current').count()).toBe(1);
    await page.getByRole('button', { name: 'Newest first' }).click();
    expect(await page.getByRole('button', { name: 'Newest first' }).getAttribute('aria-pressed')).toBe('true');
    expect(await stage.locator('.swim-values li').allTextContents()).toEqual([...values].reverse());
    // The eight most changed attributes first, the rest on request.
    const all = await page.locator('#swimlanes > li').count();
    expect(all).toBeGreaterThan(8);
    expect(await page.locator('#swimlanes > li:visible').count()).toBe(8);
    await page.getByRole('button', { name: `Show every attribute (${all})` }).click();
    expect(await page.locator('#swimlanes > li:visible').count()).toBe(all);
  });

  it('had no console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});
