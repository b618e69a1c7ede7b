import { CORE_ENTITY_TYPES, SCHEMA_ID_PREFIX } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import type { JsonObject } from './ast.js';
import { ExecContext, type ExecOptions } from './executor/context.js';
import { TypeRegistry, type VirtualDef } from './executor/registry.js';
import { createConcept, update } from './executor/write/concept.js';
import { upsertLink } from './executor/write/link.js';
import { KipWriter } from './executor/write/writer.js';
import {
  CONCEPT_TYPE,
  PROPOSITION_TYPE,
  defaultKipType,
  defaultPieRelType,
  defaultPieType,
  kipMeta,
  withKipMeta,
} from './mapping.js';

/** Bumped when the bootstrap set changes; a store marked with an older version is bootstrapped again (idempotently). */
export const BOOTSTRAP_VERSION = 1;

interface Def {
  type: string;
  name: string;
  attributes: JsonObject;
}

const PIE_TYPE_DESCRIPTIONS: Record<string, string> = {
  person: 'An actor: a human, an AI, an organization acting as one, or a system.',
  project: 'Something the user works on (PIE entity type "project").',
  belief: 'Something the user holds true, with a stance and confidence (PIE entity type "belief").',
  decision: 'A choice the user made, with reasoning and alternatives (PIE entity type "decision").',
  tool: 'Software, hardware or a method the user uses (PIE entity type "tool").',
  concept: 'An idea or topic (PIE entity type "concept").',
  organization: 'A company, school or group (PIE entity type "organization").',
  period: 'A life period with fuzzy start and end (PIE entity type "period").',
  place: 'A location (PIE entity type "place").',
  event: 'Episodic memory: something that happened.',
  preference: 'A first-class, stable preference.',
  commitment: 'A prospective promise or deadline.',
};

const conceptType = (name: string, description: string): Def => ({
  type: CONCEPT_TYPE,
  name,
  attributes: { description },
});
const predicate = (name: string, description: string, subject: string[] = ['*'], object: string[] = ['*']): Def => ({
  type: PROPOSITION_TYPE,
  name,
  attributes: { description, subject_types: subject, object_types: object },
});

/** The bootstrap set (spec §6.1) plus PIE's own entity types and core relationship types. */
export const BOOTSTRAP: readonly Def[] = [
  conceptType(CONCEPT_TYPE, 'The type of concept types (self-referential genesis).'),
  conceptType(PROPOSITION_TYPE, 'The type of predicates.'),
  conceptType('Domain', 'An organizational unit grouping concepts.'),
  ...CORE_ENTITY_TYPES.map((t) =>
    conceptType(defaultKipType(t), PIE_TYPE_DESCRIPTIONS[t] ?? `PIE entity type "${t}".`),
  ),
  conceptType('Insight', 'A self-reflective lesson of the agent.'),
  conceptType('SleepTask', 'A background maintenance task.'),
  predicate('belongs_to_domain', 'Domain membership.', ['*'], ['Domain']),
  predicate('involves', 'An event involves a person.', ['Event'], ['Person']),
  predicate('mentions', 'An event mentions something.', ['Event']),
  predicate('consolidated_to', 'An event was consolidated into semantic knowledge.', ['Event']),
  predicate('derived_from', 'Knowledge derived from an event.', ['*'], ['Event']),
  predicate('prefers', 'A person holds a stable preference.', ['Person'], ['Preference']),
  predicate('learned', 'A person learned an insight.', ['Person'], ['Insight']),
  predicate('committed_to', 'A person committed to something.', ['Person'], ['Commitment']),
  predicate('owed_to', 'A commitment is owed to a person.', ['Commitment'], ['Person']),
  predicate('assigned_to', 'A maintenance task is assigned to a person.', ['SleepTask'], ['Person']),
  predicate('works_on', 'Someone works on a project (PIE relationship WORKS_ON).'),
  predicate('collaborates_with', 'Two actors collaborate (PIE relationship COLLABORATES_WITH).'),
  predicate('uses', 'Someone uses a tool (PIE relationship USES).'),
  predicate('about', 'A decision or belief is about something (PIE relationship ABOUT).'),
  predicate('caused_by', 'Something was caused by something else (PIE relationship CAUSED_BY).'),
  predicate('contradicts', 'A belief contradicts an earlier one (PIE relationship CONTRADICTS).'),
  predicate('related_to', 'A generic relation (PIE relationship RELATED_TO).'),
  predicate('during', 'Something happened during a period (PIE relationship DURING).'),
  { type: 'Domain', name: 'CoreSchema', attributes: { description: 'Core schema definitions.' } },
  { type: 'Domain', name: 'Unsorted', attributes: { description: 'Holding area for uncategorized items.' } },
  { type: 'Domain', name: 'Archived', attributes: { description: 'Deprecated or obsolete items.' } },
  {
    type: 'Person',
    name: '$self',
    attributes: {
      person_class: 'AI',
      description: 'The waking mind: the conversational agent that reads and writes this memory through KIP.',
    },
  },
  {
    type: 'Person',
    name: '$system',
    attributes: { person_class: 'AI', description: "The sleeping mind: PIE's maintenance cycle." },
  },
];

/** The entity holding the bootstrap mark (written last). */
export const MARKER_ID = `${SCHEMA_ID_PREFIX}Person:$system`;

export const bootstrapId = (d: { type: string; name: string }): string => `${SCHEMA_ID_PREFIX}${d.type}:${d.name}`;

export const VIRTUAL_DEFS: readonly VirtualDef[] = BOOTSTRAP.filter(
  (d) => d.type === CONCEPT_TYPE || d.type === PROPOSITION_TYPE,
).map((d) => ({ kind: d.type === CONCEPT_TYPE ? 'concept' : 'predicate', name: d.name, attributes: d.attributes }));

export async function isBootstrapped(store: WorldStore): Promise<boolean> {
  const marker = await store.entities.get(MARKER_ID);
  return marker !== null && (kipMeta(marker).bootstrap ?? 0) >= BOOTSTRAP_VERSION;
}

/**
 * Creates the bootstrap entities (protected) and their `belongs_to_domain` links to CoreSchema, idempotently:
 * entities that exist (by their fixed id) are left as they are. Call inside a transaction.
 */
export async function bootstrap(input: { tx: WorldStore; options: ExecOptions }): Promise<void> {
  const { tx } = input;
  const registry = await TypeRegistry.load({ store: tx, virtual: VIRTUAL_DEFS });
  const ctx = new ExecContext(tx, registry, input.options);
  const runId = `kip-bootstrap-${input.options.newId()}`;
  ctx.writer = new KipWriter(tx, runId, input.options.now);
  const metadata = { source: 'KIP bootstrap', author: '$system', confidence: 1 };
  for (const d of BOOTSTRAP) {
    if (await tx.entities.get(bootstrapId(d))) continue;
    const kip =
      d.type === CONCEPT_TYPE
        ? { pieType: defaultPieType(d.name) }
        : d.type === PROPOSITION_TYPE
          ? { pieType: defaultPieRelType(d.name) }
          : {};
    await createConcept(ctx, {
      id: bootstrapId(d),
      pieType: defaultPieType(d.type),
      name: d.name,
      change: { set: d.attributes, metadata },
      protected: true,
      kip,
    });
  }
  const core = await ctx.graph.concept(bootstrapId({ type: 'Domain', name: 'CoreSchema' }));
  const belongs = await registry.predicate('belongs_to_domain');
  for (const d of BOOTSTRAP) {
    const subject = await ctx.graph.concept(bootstrapId(d));
    if (!core || !subject || subject.id === core.id) continue;
    await upsertLink(ctx, { subject, pieType: belongs.pie, object: core, change: { metadata } });
  }
  const marker = await tx.entities.get(MARKER_ID);
  if (marker) {
    await update(ctx, marker, { meta: withKipMeta(marker, { ...kipMeta(marker), bootstrap: BOOTSTRAP_VERSION }) });
  }
  await tx.maintenance.append({
    id: runId,
    kind: 'kip',
    startedAt: input.options.now,
    finishedAt: input.options.now,
    status: 'completed',
    report: { bootstrap: BOOTSTRAP_VERSION, writes: ctx.writer.counts },
  });
}
