import { z } from 'zod';
import { FINDING_KINDS } from '../../../audit/detectors.js';
import { decideContradiction } from '../../../inbox/contradiction.js';
import {
  inboxAudit,
  inboxContradictions,
  inboxCounts,
  inboxMerges,
  inboxTasks,
  type Claim,
  type InboxContradiction,
  type InboxMerge,
  type InboxTask,
  type PairSide,
} from '../../../inbox/list.js';
import { decideMerge } from '../../../inbox/merge.js';
import type { DecisionInput } from '../../../inbox/run.js';
import { applyAuditFinding, decideCommitment, decideTask } from '../../../inbox/task.js';
import type { SourceRef } from '../../../query/world-at/refs.js';
import type { HttpDeps } from '../deps.js';
import { defineRoute, iso, pageQuery, type Route } from '../route.js';
import { auditResponse, countsResponse, decisionResponse, inboxResponse } from './inbox-shapes.js';

const SECTIONS = ['contradictions', 'merges', 'tasks'] as const;
const id = z.string().trim().min(1).max(200);

function sourceOut(s: SourceRef | null) {
  return s === null ? null : { episodeId: s.episodeId, title: s.title, time: iso(s.time) };
}

function claimOut(c: Claim) {
  return { ...c, time: iso(c.time), source: sourceOut(c.source) };
}

function contradictionOut(c: InboxContradiction) {
  return { ...c, older: claimOut(c.older), newer: claimOut(c.newer) };
}

function sideOut(s: PairSide) {
  return { ...s, firstSeen: iso(s.firstSeen), lastSeen: iso(s.lastSeen), source: sourceOut(s.source) };
}

function mergeOut(m: InboxMerge) {
  return { ...m, a: sideOut(m.a), b: sideOut(m.b), since: iso(m.since) };
}

function taskOut(t: InboxTask) {
  return { ...t, createdAt: iso(t.createdAt) };
}

function decision(deps: HttpDeps, prefix: string): DecisionInput {
  return { store: deps.store, now: deps.clock.now(), runId: `${prefix}-${deps.newId()}`, newId: deps.newId };
}

/**
 * The inbox: the maintenance that needs a person, and a person's decisions. Each decision is one journaled run
 * (kind "inbox", or "audit" for an audit fix) that POST /api/undo (or pie undo) reverts.
 */
export const inboxRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/inbox',
    summary:
      'What needs a person: open contradictions with both claims and their sources, merge pairs left for review, other sleep tasks (a page of each, or of one section)',
    tag: 'maintain',
    query: z.object({ section: z.enum(SECTIONS).optional().describe('only this section'), ...pageQuery(20, 100) }),
    response: inboxResponse,
    handler: async ({ query, deps }) => {
      const page = { store: deps.store, offset: query.offset, limit: query.limit };
      const wanted = (s: (typeof SECTIONS)[number]) => query.section === undefined || query.section === s;
      const envelope = <T, U>(section: { total: number; items: T[] }, out: (x: T) => U) => ({
        items: section.items.map(out),
        total: section.total,
        offset: query.offset,
        limit: query.limit,
      });
      return {
        ...(wanted('contradictions')
          ? { contradictions: envelope(await inboxContradictions(page), contradictionOut) }
          : {}),
        ...(wanted('merges') ? { merges: envelope(await inboxMerges(page), mergeOut) } : {}),
        ...(wanted('tasks') ? { tasks: envelope(await inboxTasks(page), taskOut) } : {}),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/inbox/counts',
    summary:
      'How many items wait in the inbox: open contradictions, merge pairs, other sleep tasks (the audit is not counted)',
    tag: 'maintain',
    response: countsResponse,
    handler: async ({ deps }) => {
      const counts = await inboxCounts(deps.store);
      return { ...counts, total: counts.contradictions + counts.merges + counts.tasks };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/inbox/audit',
    summary:
      'The pie audit findings (pie audit --json), less likely duplicates already listed as merge pairs; safe ones can be fixed one by one',
    tag: 'maintain',
    query: z.object(pageQuery(50, 500)),
    response: auditResponse,
    handler: async ({ query, deps }) => {
      const audit = await inboxAudit({ store: deps.store, now: deps.clock.now(), ...query });
      return { entities: audit.entities, items: audit.items, total: audit.total, ...query };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbox/contradictions',
    summary:
      'Settle an open contradiction: keep the new claim, keep the old one, or both true at different times (journaled; undo with POST /api/undo)',
    tag: 'maintain',
    write: true,
    body: z.object({
      id: id.describe('the contradiction transition, or the CONTRADICTS relationship of two beliefs'),
      keep: z.enum(['new', 'old', 'both']),
    }),
    response: decisionResponse,
    handler: async ({ body, deps }) =>
      decideContradiction({ ...decision(deps, 'inbox'), id: body.id, keep: body.keep }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbox/merges',
    summary: 'Merge a pair of entities or keep them apart for good (journaled; undo with POST /api/undo)',
    tag: 'maintain',
    write: true,
    body: z.object({
      a: id,
      b: id,
      choice: z.enum(['merge', 'keep-apart']),
      into: id.optional().describe('the entity the merge keeps (a or b); default: the one the sleep cycle would keep'),
    }),
    response: decisionResponse,
    handler: async ({ body, deps }) => decideMerge({ ...decision(deps, 'inbox'), ...body }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbox/tasks',
    summary: 'Close a sleep task: done (reviewed) or dismissed (journaled; undo with POST /api/undo)',
    tag: 'maintain',
    write: true,
    body: z.object({ id, choice: z.enum(['done', 'dismiss']) }),
    response: decisionResponse,
    handler: async ({ body, deps }) => decideTask({ ...decision(deps, 'inbox'), taskId: body.id, choice: body.choice }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbox/commitments',
    summary: 'Mark an open commitment kept or dropped (journaled; undo with POST /api/undo)',
    tag: 'maintain',
    write: true,
    body: z.object({ entity_id: id, choice: z.enum(['kept', 'dropped']) }),
    response: decisionResponse,
    handler: async ({ body, deps }) =>
      decideCommitment({ ...decision(deps, 'inbox'), entityId: body.entity_id, choice: body.choice }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbox/audit',
    summary:
      'Apply the safe fix of one audit finding, as pie audit --fix would (a run of kind audit; undo with POST /api/undo)',
    tag: 'maintain',
    write: true,
    body: z.object({
      kind: z.enum(FINDING_KINDS),
      entity_id: id,
    }),
    response: decisionResponse,
    handler: async ({ body, deps }) =>
      applyAuditFinding({ ...decision(deps, 'audit'), kind: body.kind, entityId: body.entity_id }),
  }),
];
