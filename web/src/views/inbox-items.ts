import { date, entityHref, episodeHref, h, valueText } from '../dom.js';
import { entityLink, plural } from '../widgets.js';

/** Response shapes of /api/inbox and /api/inbox/audit (the parts the view reads). */
export interface Ref {
  id: string;
  name: string;
  type: string;
}
interface SourceOut {
  episodeId: string;
  title: string;
  time?: string | null;
  excerpt?: string | null;
}
interface ClaimOut {
  state: Record<string, unknown> | null;
  entity: Ref | null;
  time: string | null;
  source: SourceOut | null;
  summary: string | null;
}
export interface ContradictionOut {
  kind: 'state' | 'edge';
  id: string;
  entity: Ref;
  other: Ref | null;
  summary: string;
  older: ClaimOut;
  newer: ClaimOut;
}
interface SideOut extends Ref {
  aliases: string[];
  state: Record<string, unknown>;
  firstSeen: string;
  lastSeen: string;
  source: SourceOut | null;
}
export interface MergeOut {
  a: SideOut;
  b: SideOut;
  into: string;
  why: string;
  taskId: string;
  status: string;
  attempts: number;
  since: string;
}
export interface TaskOut {
  id: string;
  action: string;
  reason: string;
  status: string;
  attempts: number;
  result: string | null;
  createdAt: string;
  subjects: Ref[];
}
export interface FindingOut {
  kind: string;
  entity: Ref;
  why: string;
  action:
    | { kind: 'archive' }
    | { kind: 'retype'; type: string }
    | { kind: 'merge'; into: Ref }
    | { kind: 'review'; what: string };
  safe: boolean;
  source: SourceOut | null;
  detail?: string;
  other?: Ref;
}

/** One decision a card offers: its button text, and the request that makes it. */
export interface Choice {
  label: string;
  path: string;
  body: Record<string, unknown>;
  /** Describes the button beyond its text (which item it acts on). */
  description?: string;
}

/** The elements given, without the nulls of optional parts. */
function els(...xs: (HTMLElement | null)[]): HTMLElement[] {
  return xs.filter((x): x is HTMLElement => x !== null);
}

function stateLine(state: Record<string, unknown> | null): string {
  if (state === null) return '∅';
  return Object.entries(state)
    .map(([k, v]) => `${k}: ${valueText(v)}`)
    .join(', ');
}

function sourceLine(when: string | null | undefined, source: SourceOut | null, prefix = ''): HTMLElement {
  return h(
    'p',
    { class: 'source' },
    prefix,
    when ? h('time', { datetime: when }, date(when)) : 'date unknown',
    ' · ',
    source
      ? h('a', { href: episodeHref(source.episodeId) }, source.title)
      : h('span', { class: 'muted' }, 'no source conversation'),
  );
}

function claim(label: string, c: ClaimOut): HTMLElement {
  return h(
    'div',
    { class: 'claim' },
    h('p', { class: 'claim-label' }, label),
    h(
      'p',
      { class: 'claim-value' },
      c.entity ? h('a', { href: entityHref(c.entity.name, c.entity.id) }, c.entity.name) : stateLine(c.state),
    ),
    c.summary ? h('p', { class: 'muted snippet' }, c.summary) : null,
    sourceLine(c.time, c.source),
  );
}

export function contradictionCard(c: ContradictionOut): { body: HTMLElement[]; choices: Choice[]; title: string } {
  const what = c.kind === 'state' ? Object.keys(c.newer.state ?? {}).join(', ') : 'belief';
  const about = `the contradiction about ${c.entity.name}`;
  const choice = (label: string, keep: string): Choice => ({
    label,
    path: '/api/inbox/contradictions',
    body: { id: c.id, keep },
    description: about,
  });
  return {
    title: c.entity.name,
    body: els(
      h('h3', {}, entityLink(c.entity), ` — ${what}`),
      c.other
        ? h(
            'p',
            { class: 'muted' },
            'Contradicted by ',
            h('a', { href: entityHref(c.other.name, c.other.id) }, c.other.name),
          )
        : null,
      h('div', { class: 'claims' }, claim('Older claim', c.older), claim('Newer claim', c.newer)),
    ),
    choices: [
      choice('Keep the new one', 'new'),
      choice('Keep the old one', 'old'),
      choice('Both true at different times', 'both'),
    ],
  };
}

function side(s: SideOut): HTMLElement {
  return h(
    'div',
    { class: 'claim' },
    h('p', { class: 'claim-value' }, entityLink(s)),
    s.aliases.length > 0 ? h('p', {}, 'Also called: ', s.aliases.join(', ')) : null,
    Object.keys(s.state).length > 0 ? h('p', { class: 'muted' }, stateLine(s.state)) : null,
    h('p', { class: 'muted' }, `Seen ${date(s.firstSeen)} to ${date(s.lastSeen)}`),
    sourceLine(s.source?.time, s.source, 'First named '),
  );
}

export function mergeChoices(a: Ref, b: Ref, into: string): Choice[] {
  const [keep, drop] = into === b.id ? [b, a] : [a, b];
  const merge = (k: Ref, d: Ref): Choice => ({
    label: `Merge into “${k.name}”`,
    path: '/api/inbox/merges',
    body: { a: d.id, b: k.id, choice: 'merge', into: k.id },
    description: `“${d.name}” becomes an alias of “${k.name}”`,
  });
  return [
    merge(keep, drop),
    merge(drop, keep),
    {
      label: 'Keep apart',
      path: '/api/inbox/merges',
      body: { a: a.id, b: b.id, choice: 'keep-apart' },
      description: `“${a.name}” and “${b.name}” are different; never propose them again`,
    },
  ];
}

export function mergeCard(m: MergeOut): { body: HTMLElement[]; choices: Choice[]; title: string } {
  return {
    title: `${m.a.name} / ${m.b.name}`,
    body: [
      h('h3', {}, `${m.a.name} and ${m.b.name}`),
      h(
        'p',
        {},
        m.why,
        m.attempts > 0 ? h('span', { class: 'muted' }, ` (looked at by ${plural(m.attempts, 'sleep cycle')})`) : null,
      ),
      h('div', { class: 'claims' }, side(m.a), side(m.b)),
    ],
    choices: mergeChoices(m.a, m.b, m.into),
  };
}

const TASK_TITLES: Record<string, string> = {
  review_stale_entity: 'Review an entity not mentioned for a long time',
  review_low_confidence: 'Review a fact recorded with low confidence',
  resolve_contradiction: 'Resolve a contradiction',
  merge_duplicates: 'Merge two entities',
};

export function taskCard(t: TaskOut): { body: HTMLElement[]; choices: Choice[]; title: string } {
  const choice = (label: string, c: string): Choice => ({
    label,
    path: '/api/inbox/tasks',
    body: { id: t.id, choice: c },
    description: t.reason,
  });
  return {
    title: t.reason,
    body: els(
      h('h3', {}, TASK_TITLES[t.action] ?? t.action),
      h('p', {}, t.reason),
      t.subjects.length > 0
        ? h('p', {}, 'About: ', ...t.subjects.flatMap((s, i) => [i > 0 ? ', ' : '', entityLink(s)]))
        : null,
      h('p', { class: 'muted' }, `Left ${date(t.createdAt)} · ${t.status}${t.result ? ` · ${t.result}` : ''}`),
    ),
    choices: [choice('Mark done', 'done'), choice('Dismiss', 'dismiss')],
  };
}

export const FINDING_TITLES: Record<string, string> = {
  junk: 'Junk names',
  duplicate: 'Likely duplicates',
  'no-provenance': 'Entities without a source',
  'unchanged-transition': 'Changes that changed nothing',
  'conflicting-facts': 'Conflicting facts',
  'stale-commitment': 'Overdue commitments',
};

function findingChoices(f: FindingOut): Choice[] {
  const a = f.action;
  const fix = (label: string): Choice[] => [
    { label, path: '/api/inbox/audit', body: { kind: f.kind, entity_id: f.entity.id }, description: f.why },
  ];
  if (f.safe && a.kind === 'archive') return fix('Archive');
  if (f.safe && a.kind === 'retype') return fix(`Change type to ${a.type}`);
  if (f.safe && a.kind === 'merge') return fix(`Merge into “${a.into.name}”`);
  if (f.kind === 'duplicate' && f.other) return mergeChoices(f.entity, f.other, f.other.id);
  if (f.kind === 'stale-commitment') {
    const mark = (label: string, choice: string): Choice => ({
      label,
      path: '/api/inbox/commitments',
      body: { entity_id: f.entity.id, choice },
      description: f.entity.name,
    });
    return [mark('Mark kept', 'kept'), mark('Mark dropped', 'dropped')];
  }
  return [];
}

export function findingCard(f: FindingOut): { body: HTMLElement[]; choices: Choice[]; title: string } {
  const suggestion =
    f.action.kind === 'review' ? f.action.what : f.safe ? 'safe to fix (pie audit --fix would do it)' : f.action.kind;
  return {
    title: f.entity.name,
    body: els(
      h('h4', {}, entityLink(f.entity)),
      h('p', {}, f.why),
      f.source
        ? h(
            'p',
            { class: 'source' },
            'From ',
            h('a', { href: episodeHref(f.source.episodeId) }, f.source.title),
            f.source.excerpt ? `: “${f.source.excerpt}”` : '',
          )
        : null,
      f.detail ? h('p', { class: 'muted' }, f.detail) : null,
      h('p', { class: 'muted' }, `Suggested: ${suggestion}`),
    ),
    choices: findingChoices(f),
  };
}
