import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/serve/http/app.js';
import { NEAR_MISS, seedInbox } from '../helpers/inbox.js';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';
import { openApi, type Api } from './harness.js';

/**
 * The inbox API on the bundled sample ingested offline (five open contradictions, four overdue commitments and a
 * likely duplicate in the audit), plus what seedInbox adds through the store: a merge pair left for review
 * (Univ of Maryland / University of Maryland), a stale-entity sleep task and a junk entity. Each decision is a
 * journaled run that POST /api/undo reverts exactly.
 */
interface Claim {
  state: Record<string, unknown> | null;
  time: string | null;
  source: { episodeId: string; title: string; time: string } | null;
  summary: string | null;
}
interface ContradictionItem {
  kind: 'state' | 'edge';
  id: string;
  entity: { id: string; name: string };
  other: { id: string; name: string } | null;
  older: Claim;
  newer: Claim;
}
interface Side {
  id: string;
  name: string;
  source: { episodeId: string } | null;
}
interface MergeItem {
  a: Side;
  b: Side;
  into: string;
  taskId: string;
}
interface TaskItem {
  id: string;
  action: string;
  subjects: { name: string }[];
}
interface Finding {
  kind: string;
  entity: { id: string; name: string };
  safe: boolean;
  action: { kind: string };
  other?: { id: string; name: string };
}
interface PageOf<T> {
  items: T[];
  total: number;
}
interface InboxOut {
  contradictions: PageOf<ContradictionItem>;
  merges: PageOf<MergeItem>;
  tasks: PageOf<TaskItem>;
}
interface Decision {
  runId: string;
  kind: string;
  message: string;
  journaled: number;
}
interface ErrorBody {
  error: { code: string; message: string };
}
interface EntityOut {
  entity: { state: Record<string, unknown>; tier: string; aliases: string[] };
  transitions: { items: { kind: string; summary: string }[]; total: number };
}

let template: { dir: string; cleanup: () => void };
let api: Api;
let db: string;
let seeded: Awaited<ReturnType<typeof seedInbox>>;

beforeAll(async () => {
  template = tempDir('pie-inbox-');
  const ingested = await pie([
    '--db',
    join(template.dir, 'sample.db'),
    '--tz',
    'UTC',
    '--now',
    '2025-11-01',
    'ingest',
    SAMPLE,
    '--extractor',
    'offline',
  ]);
  if (ingested.code !== 0) throw new Error(ingested.stderr);
}, 120_000);
afterAll(() => template.cleanup());

let n = 0;
beforeEach(async () => {
  db = join(template.dir, `t${(n += 1)}.db`);
  copyFileSync(join(template.dir, 'sample.db'), db);
  api = await openApi({ db });
  seeded = await seedInbox(api.services.store);
});
afterEach(async () => {
  await api.close();
});

/** An answer checked against the response schema its route declares (the one OpenAPI is written from). */
function declared<T>(method: 'get' | 'post', path: string, r: { status: number; body: unknown }): T {
  const schema = ROUTES.find((x) => x.method === method && x.path === path)?.response;
  if (!schema) throw new Error(`${method} ${path} declares no response schema`);
  if (r.status === 200) schema.parse(r.body);
  return r.body as T;
}
const inbox = async () => declared<InboxOut>('get', '/api/inbox', await api.get('/api/inbox'));
const entity = async (name: string) =>
  (await api.get<EntityOut>(`/api/entities/${encodeURIComponent(name)}?limit=100`)).body;
const contradictionOf = async (name: string) => {
  const found = (await inbox()).contradictions.items.find((c) => c.entity.name === name);
  if (!found) throw new Error(`no open contradiction about ${name}`);
  return found;
};
const audit = async () => declared<PageOf<Finding>>('get', '/api/inbox/audit', await api.get('/api/inbox/audit'));

/** Everything the inbox and the entity pages show, to compare before an action and after its undo. */
async function picture(names: string[]): Promise<unknown> {
  return {
    inbox: await inbox(),
    audit: await audit(),
    entities: await Promise.all(names.map(entity)),
  };
}

/** A decision, its answer checked against the declared schema. */
async function decide(path: string, body: unknown): Promise<{ status: number; body: Decision }> {
  const r = await api.post<Decision>(path, body);
  declared('post', path, r);
  return r;
}

async function undo(runId: string): Promise<void> {
  const r = await api.post<{ restored: number }>('/api/undo', { run_id: runId });
  expect(r.status).toBe(200);
  expect(r.body.restored).toBeGreaterThan(0);
}

describe('GET /api/inbox', () => {
  it('lists each open contradiction with both claims, their dates and source conversations', async () => {
    const body = await inbox();
    expect(body.contradictions.total).toBe(5);
    const maya = body.contradictions.items.find((c) => c.entity.name === 'Maya Chen');
    expect(maya).toMatchObject({
      kind: 'state',
      older: {
        state: { role: 'co-founder' },
        // Said in the conversation that first mentions her: a millisecond after that mention, changes said at one
        // instant keeping their order (docs/architecture.md).
        time: '2024-11-06T18:25:00.648Z',
        source: { title: 'Co-founder agreement basics' },
      },
      newer: { state: { role: 'CEO' }, source: { title: 'Changing co-founder roles' } },
    });
    // The older focus of Tidepool was never stated as a change: it dates from where Tidepool was first seen.
    const tidepool = body.contradictions.items.find((c) => c.entity.name === 'Tidepool');
    expect(tidepool?.older).toMatchObject({
      state: { focus: 'a study-group app for students' },
      source: { title: 'Study group app idea' },
    });
    for (const c of body.contradictions.items) {
      expect(c.older.time, c.entity.name).not.toBeNull();
      expect(c.newer.source, c.entity.name).not.toBeNull();
    }
  });

  it('lists the merge pair left for review, the other sleep tasks and the audit findings, and counts them', async () => {
    const body = await inbox();
    expect(body.merges.items.map((m) => [m.a.name, m.b.name])).toEqual([[NEAR_MISS, 'University of Maryland']]);
    const pair = body.merges.items[0];
    expect(pair?.into).toBe(pair?.b.id);
    expect(body.tasks.items).toMatchObject([{ action: 'review_stale_entity', subjects: [{ name: 'Maya Chen' }] }]);
    const findings = await audit();
    expect(findings.items.filter((f) => f.kind === 'stale-commitment')).toHaveLength(4);
    expect(findings.items.find((f) => f.kind === 'duplicate')).toMatchObject({
      entity: { name: 'Michigan' },
      other: { name: 'University of Michigan' },
      safe: false,
    });
    expect(findings.items.find((f) => f.entity.id === seeded.junkId)).toMatchObject({ kind: 'junk', safe: true });
    expect(declared('get', '/api/inbox/counts', await api.get('/api/inbox/counts'))).toEqual({
      contradictions: 5,
      merges: 1,
      tasks: 1,
      total: 7,
    });
    const one = await api.get<Partial<InboxOut>>('/api/inbox?section=merges&limit=1');
    expect(Object.keys(one.body)).toEqual(['merges']);
  });
});

describe('contradiction decisions', () => {
  it('keep the old one: the older value is current again from the change on; undo restores every row', async () => {
    const before = await picture(['Tidepool']);
    const c = await contradictionOf('Tidepool');
    const r = await decide('/api/inbox/contradictions', { id: c.id, keep: 'old' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'inbox', message: expect.stringContaining('kept the older claim') });
    const after = await entity('Tidepool');
    expect(after.entity.state.focus).toBe('a study-group app for students');
    expect(after.transitions.items.map((t) => t.kind)).toContain('resolution');
    expect((await inbox()).contradictions.items.map((x) => x.entity.name)).not.toContain('Tidepool');
    // The snapshot just after the pivot tells the older focus: the newer one never held.
    const snap = await api.get<{ structured: { entities: { name: string; state: Record<string, unknown> }[] } }>(
      '/api/snapshot?at=2025-03-10',
    );
    expect(JSON.stringify(snap.body)).not.toContain('a research-notes tool for labs');
    const log = await api.get<{ items: { id: string; kind: string; status: string }[] }>('/api/maintenance');
    expect(log.body.items[0]).toMatchObject({ id: r.body.runId, kind: 'inbox', status: 'completed' });
    await undo(r.body.runId);
    expect(await picture(['Tidepool'])).toEqual(before);
  });

  it('keep the new one and both true at different times close the contradiction and leave the state', async () => {
    const firebase = await contradictionOf('Firebase');
    const r1 = await decide('/api/inbox/contradictions', { id: firebase.id, keep: 'new' });
    expect(r1.status).toBe(200);
    const maya = await contradictionOf('Maya Chen');
    const r2 = await decide('/api/inbox/contradictions', { id: maya.id, keep: 'both' });
    expect(r2.status).toBe(200);
    expect((await entity('Firebase')).entity.state.status).toBe('dropped');
    expect((await entity('Maya Chen')).entity.state.role).toBe('CEO');
    const summaries = (await entity('Maya Chen')).transitions.items.map((t) => t.summary);
    expect(summaries).toContain(
      '"co-founder" until 2025-06-20, then "CEO" (role): both true at different times, a person said',
    );
    expect((await inbox()).contradictions.total).toBe(3);
    // The contradiction's sleep task is finished with it.
    const tasks = await api.services.store.tasks.list({ statuses: ['completed'] });
    expect(tasks.map((t) => t.result)).toContain('Resolved by a person: both true at different times.');
  });

  it('a belief replaced by another: keeping the new one also ends their CONTRADICTS link (it does not come back)', async () => {
    const c = await contradictionOf('vector search is enough for memory');
    expect(c.other?.name).toBe('knowledge graphs beat pure vector search for personal memory');
    expect((await api.post('/api/inbox/contradictions', { id: c.id, keep: 'new' })).status).toBe(200);
    const open = await inbox();
    expect(open.contradictions.total).toBe(4);
    expect(open.contradictions.items.some((x) => x.kind === 'edge')).toBe(false);
  });

  it('refuses a second decision on the same contradiction, an unknown one and a bad choice', async () => {
    const c = await contradictionOf('LangChain');
    expect((await api.post('/api/inbox/contradictions', { id: c.id, keep: 'new' })).status).toBe(200);
    const again = await api.post<ErrorBody>('/api/inbox/contradictions', { id: c.id, keep: 'old' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    const unknown = await api.post<ErrorBody>('/api/inbox/contradictions', { id: 'nope', keep: 'new' });
    expect(unknown.status).toBe(404);
    const bad = await api.post<ErrorBody>('/api/inbox/contradictions', { id: c.id, keep: 'newest' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('keep');
  });
});

describe('merge decisions', () => {
  it('keep apart: pairs leave the inbox for good (a full sleep and the audit do not propose them again); undo', async () => {
    const names = [NEAR_MISS, 'University of Maryland', 'University of Michigan', 'Michigan'];
    const before = await picture(names);
    const [pair] = (await inbox()).merges.items;
    const finding = (await audit()).items.find((f) => f.kind === 'duplicate');
    if (!pair || !finding?.other) throw new Error('no merge pair or duplicate finding');
    const r1 = await decide('/api/inbox/merges', { a: pair.a.id, b: pair.b.id, choice: 'keep-apart' });
    expect(r1.status).toBe(200);
    expect(r1.body.message).toBe(`"${NEAR_MISS}" and "University of Maryland" are kept apart.`);
    expect((await inbox()).merges.total).toBe(0);
    // Without a model a full sleep would leave Michigan / University of Michigan for review again; kept apart, not.
    const r2 = await decide('/api/inbox/merges', {
      a: finding.entity.id,
      b: finding.other.id,
      choice: 'keep-apart',
    });
    expect(r2.status).toBe(200);
    const sleep = await api.post<{ runId: string }>('/api/sleep', { scope: 'full', dry_run: false });
    expect(sleep.status).toBe(200);
    expect((await inbox()).merges.total).toBe(0);
    expect((await audit()).items.some((f) => f.kind === 'duplicate')).toBe(false);
    const open = await api.services.store.tasks.list({ statuses: ['pending', 'in_progress'] });
    expect(open.filter((t) => t.action === 'merge_duplicates')).toEqual([]);
    await undo(sleep.body.runId);
    await undo(r2.body.runId);
    await undo(r1.body.runId);
    expect(await picture(names)).toEqual(before);
  });

  it('without keeping apart, a full sleep leaves the likely duplicate for review as a merge pair', async () => {
    expect((await api.post('/api/sleep', { scope: 'full', dry_run: false })).status).toBe(200);
    const pairs = (await inbox()).merges.items.map((m) => [m.a.name, m.b.name].sort().join(' / '));
    expect(pairs).toContain('Michigan / University of Michigan');
  });

  it('merge a likely duplicate from the audit into the entity it names; undo brings both back', async () => {
    const before = await picture(['Michigan', 'University of Michigan']);
    const finding = (await audit()).items.find((f) => f.kind === 'duplicate');
    if (!finding?.other) throw new Error('no duplicate finding');
    const r = await decide('/api/inbox/merges', {
      a: finding.entity.id,
      b: finding.other.id,
      choice: 'merge',
      into: finding.other.id,
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('"Michigan" merged into "University of Michigan".');
    expect((await entity('University of Michigan')).entity.aliases).toContain('Michigan');
    expect((await audit()).items.some((f) => f.kind === 'duplicate')).toBe(false);
    const again = await api.post<ErrorBody>('/api/inbox/merges', {
      a: finding.entity.id,
      b: finding.other.id,
      choice: 'merge',
    });
    expect(again.status).toBe(409);
    await undo(r.body.runId);
    expect(await picture(['Michigan', 'University of Michigan'])).toEqual(before);
  });
});

describe('sleep tasks, commitments and audit fixes', () => {
  it('a sleep task marked done leaves the inbox; undo puts it back', async () => {
    const before = await picture([]);
    const r = await decide('/api/inbox/tasks', { id: seeded.taskId, choice: 'done' });
    expect(r.status).toBe(200);
    expect((await inbox()).tasks.total).toBe(0);
    const task = (await api.services.store.tasks.list({ statuses: ['completed'] })).find((t) => t.id === seeded.taskId);
    expect(task?.result).toBe('Reviewed by a person.');
    expect((await api.post<ErrorBody>('/api/inbox/tasks', { id: seeded.taskId, choice: 'dismiss' })).status).toBe(409);
    await undo(r.body.runId);
    expect(await picture([])).toEqual(before);
  });

  it('an overdue commitment marked kept is no longer an audit finding; undo', async () => {
    const before = await picture(['finish the pitch deck']);
    const f = (await audit()).items.find((x) => x.entity.name === 'finish the pitch deck');
    if (!f) throw new Error('no finding');
    const r = await decide('/api/inbox/commitments', { entity_id: f.entity.id, choice: 'kept' });
    expect(r.status).toBe(200);
    expect((await entity('finish the pitch deck')).entity.state.status).toBe('fulfilled');
    expect((await audit()).items.some((x) => x.entity.id === f.entity.id)).toBe(false);
    await undo(r.body.runId);
    expect(await picture(['finish the pitch deck'])).toEqual(before);
  });

  it('the safe fix of one audit finding runs as an audit run; undo restores the entity', async () => {
    const before = await picture([]);
    const r = await decide('/api/inbox/audit', { kind: 'junk', entity_id: seeded.junkId });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'audit', message: '"they" archived.' });
    expect((await api.services.store.entities.get(seeded.junkId))?.tier).toBe('archived');
    const unsafe = (await audit()).items.find((x) => x.kind === 'stale-commitment');
    const refused = await api.post<ErrorBody>('/api/inbox/audit', {
      kind: 'stale-commitment',
      entity_id: unsafe?.entity.id,
    });
    expect(refused.status).toBe(400);
    await undo(r.body.runId);
    expect(await picture([])).toEqual(before);
  });

  it('undo works on the latest decision only: an earlier one waits until the later one is undone', async () => {
    const first = await decide('/api/inbox/tasks', { id: seeded.taskId, choice: 'dismiss' });
    const c = await contradictionOf('Firebase');
    const second = await decide('/api/inbox/contradictions', { id: c.id, keep: 'new' });
    const early = await api.post<ErrorBody>('/api/undo', { run_id: first.body.runId });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toContain(second.body.runId);
    await undo(second.body.runId);
    await undo(first.body.runId);
  });
});

describe('read-only server', () => {
  it('lists the inbox and refuses every decision with 403 READ_ONLY, changing nothing', async () => {
    await api.close();
    api = await openApi({ db, readOnly: true });
    const before = await picture([]);
    const c = before as { inbox: InboxOut };
    const [pair] = c.inbox.merges.items;
    const refusals = [
      await api.post<ErrorBody>('/api/inbox/contradictions', { id: c.inbox.contradictions.items[0]?.id, keep: 'new' }),
      await api.post<ErrorBody>('/api/inbox/merges', { a: pair?.a.id, b: pair?.b.id, choice: 'keep-apart' }),
      await api.post<ErrorBody>('/api/inbox/tasks', { id: seeded.taskId, choice: 'done' }),
      await api.post<ErrorBody>('/api/inbox/commitments', { entity_id: seeded.junkId, choice: 'kept' }),
      await api.post<ErrorBody>('/api/inbox/audit', { kind: 'junk', entity_id: seeded.junkId }),
    ];
    for (const r of refusals) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('READ_ONLY');
    }
    expect(await picture([])).toEqual(before);
  });

  it('describes the inbox routes in the OpenAPI document, the writes with their 403', async () => {
    const doc = await api.get<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
      '/api/openapi.json',
    );
    for (const path of ['/api/inbox/contradictions', '/api/inbox/merges', '/api/inbox/tasks', '/api/inbox/audit']) {
      expect(doc.body.paths[path]?.post?.responses['403'], path).toBeDefined();
    }
    const answer = doc.body.paths['/api/inbox']?.get?.responses['200'] as {
      content: { 'application/json': { schema: { properties: Record<string, unknown> } } };
    };
    expect(Object.keys(answer.content['application/json'].schema.properties)).toEqual([
      'contradictions',
      'merges',
      'tasks',
    ]);
  });
});
