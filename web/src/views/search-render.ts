/** Search results that lead with the thing: entity cards, then entities and changes, then conversations. */
import { date, entityHref, episodeHref, h } from '../dom.js';
import { entityLink, markedSnippet, plural, stateList, tierBadge, typeBadge } from '../widgets.js';
import type { ConversationHit, EntityCard, SearchItemOut, SearchOut } from '../world-shapes.js';

/** Attributes shown on a card (the entity page has them all). */
const CARD_ATTRIBUTES = 6;

export function renderSearch(r: SearchOut): (HTMLElement | null)[] {
  const carded = new Set(r.entities.map((e) => e.id));
  // The carded entities lead; the rest of the entity and change hits follow in rank order.
  const hits = r.items.filter(
    (i) => (i.kind === 'entity' && !(i.entity && carded.has(i.entity.id))) || i.kind === 'transition',
  );
  const nothing = r.items.length === 0 && r.entities.length === 0;
  return [
    h(
      'h2',
      { id: 'results-h' },
      nothing ? `Nothing matches “${r.query}”` : `${plural(r.items.length, 'result')} for “${r.query}”`,
    ),
    r.entities.length > 0
      ? h(
          'ul',
          { class: 'cards', id: 'search-entities', 'aria-label': 'Entities the query names' },
          ...r.entities.map(card),
        )
      : null,
    hits.length > 0
      ? h(
          'section',
          { 'aria-labelledby': 'hits-h' },
          h('h3', { id: 'hits-h' }, `Entities and changes (${hits.length})`),
          h('ol', { class: 'results', id: 'search-hits' }, ...hits.map(hitItem)),
        )
      : null,
    r.conversations.length > 0
      ? h(
          'section',
          { 'aria-labelledby': 'conversations-h' },
          h('h3', { id: 'conversations-h' }, `Conversations (${r.conversations.length})`),
          h('ol', { class: 'results', id: 'search-conversations' }, ...r.conversations.map(conversationItem)),
        )
      : null,
    nothing ? h('p', {}, 'Try other or fewer words, a name PIE knows, or a time such as “last spring”.') : null,
    reading(r, nothing),
  ];
}

function card(e: EntityCard): HTMLElement {
  const change = e.latestChange;
  return h(
    'li',
    { class: 'card entity-card', 'data-entity': e.name },
    h(
      'h3',
      { class: 'card-head' },
      h('a', { href: entityHref(e.name, e.id) }, e.name),
      ' ',
      typeBadge(e.type),
      ' ',
      tierBadge(e.tier),
    ),
    e.matched !== e.name ? h('p', { class: 'muted' }, `Found by its alias “${e.matched}”.`) : null,
    stateList(e.state, CARD_ATTRIBUTES) ?? h('p', { class: 'muted' }, 'No current state recorded.'),
    change
      ? h(
          'p',
          { class: 'latest' },
          h('strong', {}, 'Latest change'),
          ` (${date(change.time)}): ${change.summary}`,
          change.episodeId
            ? [' — from ', h('a', { href: episodeHref(change.episodeId) }, change.episodeTitle ?? 'the source')]
            : null,
        )
      : null,
    h(
      'p',
      { class: 'muted' },
      `${plural(e.changes, 'change')} · first seen ${date(e.firstSeen)} · last seen ${date(e.lastSeen)} · `,
      h('a', { href: entityHref(e.name, e.id) }, `Open ${e.name}`),
    ),
  );
}

function hitItem(item: SearchItemOut): HTMLElement {
  if (item.kind === 'entity' && item.entity) {
    return h(
      'li',
      {},
      h('span', { class: 'badge kind-entity' }, 'entity'),
      ' ',
      entityLink(item.entity),
      item.snippet ? h('p', { class: 'snippet' }, ...markedSnippet(item.snippet)) : null,
    );
  }
  return h(
    'li',
    {},
    h('span', { class: 'badge kind-transition' }, 'change'),
    ' ',
    item.entity ? h('a', { href: entityHref(item.entity.name, item.entity.id) }, item.entity.name) : null,
    `: ${item.title}`,
    h('span', { class: 'muted' }, ` ${date(item.time)}`),
    item.episodeId ? [' ', h('a', { href: episodeHref(item.episodeId), class: 'muted' }, 'source')] : null,
  );
}

function conversationItem(c: ConversationHit): HTMLElement {
  return h(
    'li',
    { class: 'conversation-hit' },
    h('span', { class: 'badge kind-episode' }, 'conversation'),
    ' ',
    h('a', { href: episodeHref(c.episodeId) }, c.title),
    h('span', { class: 'muted' }, ` ${date(c.time)}`),
    c.snippet ? h('p', { class: 'snippet' }, ...markedSnippet(c.snippet)) : null,
    c.turns.length > 0
      ? h(
          'ol',
          { class: 'turns', 'aria-label': `Matching turns in “${c.title}”` },
          ...c.turns.map((t) =>
            h(
              'li',
              { class: 'turn-hit' },
              h('a', { href: episodeHref(c.episodeId, t.seq) }, `Turn ${t.seq + 1}`),
              t.snippet ? [': ', ...markedSnippet(t.snippet)] : null,
            ),
          ),
        )
      : null,
  );
}

/** How PIE read the query: open when nothing matched (it explains why), folded away otherwise. */
function reading(r: SearchOut, open: boolean): HTMLElement {
  const x = r.reading;
  const lanes = x.lanes.filter((l) => l.lane !== 'recent' || !l.skipped);
  return h(
    'details',
    { class: 'reading', id: 'search-reading', open },
    h('summary', {}, `How PIE read “${r.query}”`),
    h(
      'dl',
      { class: 'state' },
      h('dt', {}, 'Time'),
      h(
        'dd',
        { id: 'reading-time' },
        x.timeRanges.length === 0
          ? 'no time reference: every time searched'
          : x.timeRanges.map((t) => `“${t.text}” read as ${t.label}`).join('; '),
      ),
      h('dt', {}, 'Names'),
      h(
        'dd',
        {},
        x.entities.length === 0
          ? 'no known entity named'
          : x.entities.flatMap((e, i) => [i > 0 ? ', ' : '', h('a', { href: entityHref(e.name, e.id) }, e.name)]),
      ),
      h('dt', {}, 'Looked for'),
      h(
        'dd',
        {},
        `${x.wantsHistory ? 'history and current state' : 'the current state'} (read as ${x.intent.replace(/_/g, ' ')})`,
      ),
      h('dt', {}, 'Lanes'),
      h(
        'dd',
        { id: 'reading-lanes' },
        h(
          'ul',
          { class: 'plain' },
          ...lanes.map((l) =>
            h(
              'li',
              { 'data-lane': l.lane },
              `${l.lane}: `,
              l.skipped ? `not used (${l.skipped})` : plural(l.hits, 'hit'),
            ),
          ),
        ),
      ),
    ),
  );
}
