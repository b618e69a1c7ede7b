import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { longDate } from '../../../compile/time-format.js';
import { compileTimeline, stateText } from '../../../compile/timeline.js';
import type { Transition } from '../../../domain/world.js';
import { findEntity } from '../../../world/lookup.js';
import { loadTimeline, type EntityTimeline, type TimelineRelationship } from '../../../world/timeline.js';
import type { McpDeps } from '../deps.js';
import { guarded, iso, READ_ONLY, respond } from '../respond.js';
import {
  entityOut,
  entitySchema,
  isoTime,
  limitInput,
  refOut,
  relationshipSchema,
  sourceSchema,
  stateSchema,
  timeFormatInput,
  withBudget,
} from '../schemas.js';

const DEFAULT_TRANSITIONS = 40;
const MAX_NAME_CHARS = 300;

const transitionSchema = z.object({
  id: z.string(),
  kind: z.string().describe('creation | update | contradiction | resolution | archival'),
  summary: z.string(),
  time: isoTime.describe("event time: when it was true in the user's world"),
  from: stateSchema.nullable(),
  to: stateSchema,
  confidence: z.number(),
  episodeId: z.string().nullable(),
  unresolvedContradiction: z.boolean(),
});

const entityOutput = withBudget({
  entity: entitySchema,
  transitions: z.number().int().describe('how many transitions its history has'),
  latestChange: transitionSchema.nullable(),
  relationships: z.array(relationshipSchema).describe('relationships that hold now'),
});

const timelineOutput = withBudget({
  entity: entitySchema,
  totalTransitions: z.number().int(),
  transitions: z.array(transitionSchema).describe('chronological; the latest `limit` of them'),
  relationships: z.array(relationshipSchema).describe('current and ended, by start'),
  sources: z.array(sourceSchema),
});

const nameInput = (what: string) =>
  z
    .string()
    .min(1, { error: `The ${what} is empty; give the name or an alias of an entity (search_memory finds names).` })
    .max(MAX_NAME_CHARS, { error: `That is not a name (over ${MAX_NAME_CHARS} characters); give a name or alias.` });

export function registerEntityTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'get_entity',
    {
      title: 'Look up an entity',
      description:
        'One entity (person, project, tool, belief, decision, place, …) by name or alias: its type, aliases, current ' +
        'state, when it was first and last seen, its latest change and the relationships that hold now. Unknown names ' +
        'fail with the closest known names.',
      inputSchema: { name: nameInput('name').describe('name or alias, e.g. "Maya" or "Tidepool"') },
      outputSchema: entityOutput,
      annotations: READ_ONLY,
    },
    ({ name }) =>
      guarded(deps, { subject: 'entity', name }, async () => {
        const entity = await findEntity({ store: deps.store, name });
        const t = await loadTimeline({ store: deps.store, entity });
        const open = t.relationships.filter((r) => r.relationship.validTo === null);
        const latest = t.transitions.filter((x) => x.kind !== 'creation').at(-1) ?? null;
        const tz = deps.tz;
        const lines = [
          `${entity.name} (${entity.type})`,
          ...(entity.aliases.length > 0 ? [`Also called: ${entity.aliases.join(', ')}`] : []),
          `First seen ${longDate(entity.firstSeen, tz)}, last seen ${longDate(entity.lastSeen, tz)}; ` +
            `${t.transitions.length} transitions; importance ${entity.importance.toFixed(2)}; tier ${entity.tier}.`,
          `Current state: ${stateText(entity.state) || '(none recorded)'}`,
          ...(latest ? [`Latest change (${longDate(latest.eventTime, tz)}): ${latest.summary}`] : []),
          ...(open.length > 0 ? ['Relationships now:', ...open.map((r) => `  • ${edgeText(entity.name, r)}`)] : []),
          'For the full history, call get_entity_timeline.',
        ];
        return respond(deps, {
          text: lines.join('\n'),
          structured: {
            entity: entityOut(entity),
            transitions: t.transitions.length,
            latestChange: latest ? transitionOut(latest) : null,
            relationships: open.map((r) => relationshipOut(entity, r)),
          },
          narrow: 'Use get_entity_timeline or query_world for a narrower question about this entity.',
        });
      }),
  );

  server.registerTool(
    'get_entity_timeline',
    {
      title: "An entity's history",
      description:
        'The full evolution of one entity as a temporal narrative: when it first appeared and was last referenced, ' +
        'how often its state changed, each change with its time and period (old → new values), contradictions ' +
        'flagged, relationships with their valid times, and the source conversations. Long histories show the latest ' +
        '`limit` changes.',
      inputSchema: {
        entity_name: nameInput('entity name').describe('name or alias of the entity'),
        time_format: timeFormatInput,
        limit: limitInput('transitions (the latest ones)', DEFAULT_TRANSITIONS, 1000),
      },
      outputSchema: timelineOutput,
      annotations: READ_ONLY,
    },
    ({ entity_name, time_format, limit }) =>
      guarded(deps, { subject: 'entity', name: entity_name }, async () => {
        const entity = await findEntity({ store: deps.store, name: entity_name });
        const full = await loadTimeline({ store: deps.store, entity });
        const max = limit ?? DEFAULT_TRANSITIONS;
        const shown: EntityTimeline = { ...full, transitions: full.transitions.slice(-max) };
        const time = { now: deps.clock.now(), tz: deps.tz, format: time_format ?? 'hybrid' } as const;
        const text = timelineText({ full, shown, time });
        const episodeIds = new Set(shown.transitions.map((t) => t.episodeId));
        return respond(deps, {
          text,
          structured: {
            entity: entityOut(entity),
            totalTransitions: full.transitions.length,
            transitions: shown.transitions.map(transitionOut),
            relationships: full.relationships.map((r) => relationshipOut(entity, r)),
            sources: full.sources
              .filter((s) => episodeIds.has(s.episodeId))
              .map((s) => ({ episodeId: s.episodeId, title: s.title, time: iso(s.time) })),
          },
          narrow: 'Pass a smaller limit to see only the latest changes, or ask query_world about a time span.',
        });
      }),
  );
}

/**
 * The narrative of the latest transitions. The header (how often it changed, and how fast) is told from the whole
 * history, and a line says how much older history was left out.
 */
function timelineText(input: {
  full: EntityTimeline;
  shown: EntityTimeline;
  time: { now: number; tz: string; format: 'semantic' | 'absolute' | 'hybrid' };
}): string {
  const { full, shown, time } = input;
  const hidden = full.transitions.length - shown.transitions.length;
  const shownText = compileTimeline({ timeline: { ...shown, sources: sourcesOf(shown) }, time });
  if (hidden === 0) return shownText;
  const fullHeader = compileTimeline({ timeline: { ...full, relationships: [], sources: [] }, time })
    .split('\n')
    .find((l) => l.startsWith('Changed state'));
  const lines = shownText.split('\n').map((l) => (fullHeader && l.startsWith('Changed state') ? fullHeader : l));
  const at = lines.indexOf('History:');
  const note = `  (the latest ${shown.transitions.length} of ${full.transitions.length} transitions; ${hidden} older ones left out — pass a larger limit to see them)`;
  if (at >= 0) lines.splice(at + 1, 0, note);
  return lines.join('\n');
}

function sourcesOf(t: EntityTimeline): EntityTimeline['sources'] {
  const ids = new Set(t.transitions.map((x) => x.episodeId));
  return t.sources.filter((s) => ids.has(s.episodeId));
}

function transitionOut(t: Transition) {
  return {
    id: t.id,
    kind: t.kind,
    summary: t.summary,
    time: iso(t.eventTime),
    from: t.fromState,
    to: t.toState,
    confidence: t.confidence,
    episodeId: t.episodeId,
    unresolvedContradiction: t.kind === 'contradiction' && t.resolvedBy === null,
  };
}

function relationshipOut(entity: { id: string; name: string; type: string }, r: TimelineRelationship) {
  const self = refOut(entity);
  const other = refOut(r.other);
  const rel = r.relationship;
  return {
    type: rel.type,
    source: r.direction === 'out' ? self : other,
    target: r.direction === 'out' ? other : self,
    properties: rel.properties,
    since: iso(rel.validFrom),
    until: iso(rel.validTo),
  };
}

function edgeText(name: string, r: TimelineRelationship): string {
  const props = stateText(r.relationship.properties);
  const text =
    r.direction === 'out'
      ? `${name} ${r.relationship.type} ${r.other.name}`
      : `${r.other.name} ${r.relationship.type} ${name}`;
  return props ? `${text} (${props})` : text;
}
