import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectConsoleErrors, openRoute, openSampleSession, type SampleSession } from './page.js';

/**
 * The graph page on the bundled sample, in Chromium: the legend hides a type, hovering highlights a neighbourhood,
 * find-in-graph focuses a node, a node expands in place, Fit frames everything, ended relationships are dashed, the
 * time slider redraws the graph as of a period. The drawing is read from cytoscape's instance on its container.
 */
let session: SampleSession;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  session = await openSampleSession();
  page = session.page;
  errors = collectConsoleErrors(page);
}, 180_000);
afterAll(async () => {
  await session?.close();
});

/** Runs `body` in the page with `cy` (the drawn graph) in scope; answers its result. */
function inGraph<T>(body: string): Promise<T> {
  return page.evaluate(`(() => { const cy = document.getElementById('graph')._cyreg.cy; ${body} })()`) as Promise<T>;
}
const names = (selector: string): Promise<string[]> =>
  inGraph(`return cy.nodes(${JSON.stringify(selector)}).map((n) => n.data('label')).sort();`);

/** Comes onto the node named `label` from outside the canvas, where it is drawn now; answers the nodes lit. */
async function hoverOn(label: string): Promise<string[]> {
  const at = await inGraph<{ x: number; y: number }>(
    `const p = cy.nodes().filter((n) => n.data('label') === ${JSON.stringify(label)}).renderedPosition();
     const r = cy.container().getBoundingClientRect(); return { x: r.left + p.x, y: r.top + p.y };`,
  );
  await page.mouse.move(1, 1);
  await page.mouse.move(at.x, at.y, { steps: 3 });
  return names('.hl');
}

type GraphJson = {
  nodes: { id: string; name: string; type: string }[];
  edges: { id: string; source: string; target: string; until: string | null }[];
};
async function api(query: string): Promise<GraphJson> {
  const r = await page.request.get(`${session.server.url}api/graph?${query}`);
  return (await r.json()) as GraphJson;
}

describe('the graph page', () => {
  it('hides a type from the legend, and shows it again', async () => {
    await openRoute({ page, url: session.server.url, hash: '#/graph/Tidepool', ready: '#graph-nodes li' });
    const people = await names('[type = "person"]');
    expect(people).toContain('Maya Chen');
    const button = page.locator('#graph-legend button[data-type="person"]');
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await names('.type-hidden')).toEqual(people);
    expect(await page.locator('#graph-nodes').textContent()).not.toContain('Maya Chen');
    await button.click();
    expect(await names('.type-hidden')).toEqual([]);
    expect(await page.locator('#graph-nodes').textContent()).toContain('Maya Chen');
  });

  it('highlights the neighbourhood of the node under the pointer', async () => {
    await expect.poll(() => hoverOn('Maya Chen')).toContain('Maya Chen');
    const lit = await names('.hl');
    const around = await inGraph<string[]>(
      `return cy.nodes().filter((n) => n.data('label') === 'Maya Chen').closedNeighborhood('node').map((n) => n.data('label')).sort();`,
    );
    expect(lit).toEqual(around);
    expect((await names('.faded')).length).toBe((await names('')).length - around.length);
    // An empty corner of the canvas: the pointer leaves the node.
    const box = await page.locator('#graph').boundingBox();
    await page.mouse.move((box?.x ?? 0) + 3, (box?.y ?? 0) + 3, { steps: 5 });
    await expect.poll(() => names('.faded')).toEqual([]);
  });

  it('still finds the node under the pointer once Filters open above the canvas and move it down', async () => {
    const top = (): Promise<number> => inGraph<number>(`return cy.container().getBoundingClientRect().top;`);
    const before = await top();
    const filters = page.locator('details.filters');
    await filters.locator('summary').click();
    expect(await filters.getAttribute('open')).not.toBeNull();
    expect(await top()).toBeGreaterThan(before);
    // Cytoscape had the canvas's old place cached: the pointer on Maya Chen lit nothing.
    await expect.poll(() => hoverOn('Maya Chen')).toContain('Maya Chen');
    await filters.locator('summary').click();
    await expect.poll(() => hoverOn('Maya Chen')).toContain('Maya Chen');
  });

  it('focuses a node found by name, then expands its neighbours in place', async () => {
    await page.getByLabel('Find in graph').fill('maya');
    await page.getByRole('button', { name: 'Focus' }).click();
    await expect.poll(() => page.locator('#graph-status').textContent()).toBe('Focused on Maya Chen.');
    expect(await inGraph<string[]>(`return cy.nodes(':selected').map((n) => n.data('label'));`)).toEqual(['Maya Chen']);
    const around = await api('entity=Maya%20Chen&limit=30&ended=true');
    const before = await names('');
    // Some of Maya Chen's neighbours are not around Tidepool: expanding her adds them.
    expect(around.nodes.filter((n) => !before.includes(n.name)).length).toBeGreaterThan(0);
    await page.locator('#graph-selected').getByRole('button', { name: 'Expand its neighbours here' }).click();
    await expect
      .poll(() => page.locator('#graph-status').textContent())
      .toMatch(/^Maya Chen: \d+ new neighbours? added(, and \d+ relationships? among the entities shown)?\.$/);
    const drawn = await names('');
    for (const n of around.nodes) expect(drawn).toContain(n.name);
    // The relationships of the new neighbours are drawn too, to each other and to what was already there (not only
    // those to Maya Chen): every one the neighbourhood of each new neighbour names between two drawn entities.
    const drawnIds = new Set(await inGraph<string[]>(`return cy.nodes().map((n) => n.id());`));
    const edgeIds = new Set(await inGraph<string[]>(`return cy.edges().map((e) => e.id());`));
    const maya = around.nodes.find((n) => n.name === 'Maya Chen')?.id ?? '';
    const fresh = around.nodes.filter((n) => !before.includes(n.name));
    const expected = new Map<string, GraphJson['edges'][number]>();
    for (const n of fresh) {
      for (const e of (await api(`entity=${encodeURIComponent(n.name)}&limit=300&ended=true`)).edges) {
        if (drawnIds.has(e.source) && drawnIds.has(e.target)) expected.set(e.id, e);
      }
    }
    const beyond = [...expected.values()].filter((e) => e.source !== maya && e.target !== maya);
    expect(beyond.length).toBeGreaterThan(0);
    for (const id of expected.keys()) expect(edgeIds.has(id)).toBe(true);
    expect(page.url()).toMatch(/#\/graph\/Tidepool$/);
    await page.getByLabel('Find in graph').fill('no such thing');
    await page.getByRole('button', { name: 'Focus' }).click();
    await expect.poll(() => page.locator('#graph-status').textContent()).toContain('is not in this graph');
    expect(await page.locator('#graph-status a').getAttribute('href')).toBe('#/graph/no%20such%20thing');
  });

  it('frames the whole graph with Fit', async () => {
    await inGraph(`cy.zoom({ level: 4, position: cy.nodes()[0].position() }); return null;`);
    const inside = `const e = cy.extent(), b = cy.elements().boundingBox();
      return b.x1 >= e.x1 - 1 && b.x2 <= e.x2 + 1 && b.y1 >= e.y1 - 1 && b.y2 <= e.y2 + 1;`;
    expect(await inGraph<boolean>(inside)).toBe(false);
    await page.getByRole('button', { name: 'Fit' }).click();
    expect(await inGraph<boolean>(inside)).toBe(true);
  });

  it('draws ended relationships dashed, and leaves them out on request', async () => {
    const ended = (await api('entity=Tidepool&limit=80&ended=true')).edges.filter((e) => e.until !== null).length;
    expect(ended).toBeGreaterThan(0);
    await openRoute({ page, url: session.server.url, hash: '#/graph/Tidepool', ready: '#graph-nodes li' });
    expect(await inGraph<string[]>(`return cy.edges('[?ended]').map((e) => e.style('line-style'));`)).toEqual(
      Array.from({ length: ended }, () => 'dashed'),
    );
    expect(await page.locator('#graph-nodes li', { hasText: '(ended ' }).count()).toBe(ended);
    await openRoute({ page, url: session.server.url, hash: '#/graph/Tidepool?ended=0', ready: '#graph-nodes li' });
    expect(await inGraph<number>(`return cy.edges('[?ended]').length;`)).toBe(0);
  });

  it('redraws the graph as of a period from the time slider, and keeps it in the address', async () => {
    await openRoute({ page, url: session.server.url, hash: '#/graph/Tidepool', ready: '#graph-nodes li' });
    const slider = page.getByLabel('As of (through the periods)');
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('#graph-status').textContent()).toMatch(/^As of .+: \d+ relationships?\.$/);
    const at = new URL(page.url()).hash.match(/at=([^&]+)/)?.[1] ?? '';
    expect(at).not.toBe('');
    const then = await api(`entity=Tidepool&limit=80&at=${at}`);
    expect((await names('')).length).toBe(then.nodes.length);
    expect(await page.locator('main').getAttribute('data-route')).toBe(new URL(page.url()).hash);
    await page.keyboard.press('End');
    await expect.poll(() => page.url()).toMatch(/#\/graph\/Tidepool$/);
    expect(errors).toEqual([]);
  });
});
