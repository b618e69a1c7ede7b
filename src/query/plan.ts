import { errorMessage } from '../domain/errors.js';
import type { Entity, Period } from '../domain/world.js';
import type { LlmClient } from '../llm/index.js';
import type { WorldStore } from '../ports/world-store.js';
import { normalizeName } from '../resolve/normalize.js';
import { chooseTimeFormat, classifyIntent, wantsHistory } from './intent.js';
import { CLASSIFY_QUERY_PROMPT } from './intent-prompt.js';
import { findNamedEntities } from './named-entities.js';
import { findTimeRanges } from './time/index.js';
import { anchorYearlessInMemory } from './time-in-memory.js';
import type { Intent, QueryPlan, TimeFormatChoice } from './types.js';

export interface PlanInput {
  store: WorldStore;
  question: string;
  now: number;
  tz: string;
  periods: readonly Period[];
  format: TimeFormatChoice;
  /** When given, the model classifies the intent and names; the rules are the fallback. */
  client?: LlmClient | null | undefined;
  /** Told when the model could not classify (the rules answered instead). */
  onWarning?: (message: string) => void;
}

/** Reads a question: intent, named entities, time references, history or current, the time format. */
export async function planQuery(input: PlanInput): Promise<QueryPlan> {
  const { question, now } = input;
  const timeRanges = await anchorYearlessInMemory({
    store: input.store,
    ranges: findTimeRanges({ text: question, now, tz: input.tz, periods: input.periods }),
    tz: input.tz,
  });
  const named = await findNamedEntities({ store: input.store, question });
  let intent: Intent = classifyIntent({ question, namedEntities: named.length, timeRanges: timeRanges.length });
  let history: boolean | null = null;
  let decidedBy: QueryPlan['decidedBy'] = 'rules';
  const unknownNames: string[] = [];
  if (input.client) {
    try {
      const { object } = await input.client.generate({
        prompt: CLASSIFY_QUERY_PROMPT,
        input: { question, knownNames: named.map((e) => e.name) },
      });
      intent = object.intent;
      history = object.wantsHistory;
      decidedBy = 'model';
      for (const name of object.entities) {
        const found = await resolveName(input.store, name);
        if (found) {
          if (!named.some((e) => e.id === found.id) && found.type !== 'period') named.push(found);
        } else if (!unknownNames.includes(name)) unknownNames.push(name);
      }
    } catch (error) {
      input.onWarning?.(`The model could not classify the question (${errorMessage(error)}); using the rules.`);
    }
  }
  const pastRange = timeRanges.some((r) => r.end <= now);
  return {
    question,
    intent,
    entityIds: named.map((e) => e.id),
    unknownNames,
    timeRanges,
    wantsHistory: history ?? wantsHistory({ question, intent, pastRange }),
    timeFormat: input.format === 'auto' ? chooseTimeFormat(question, timeRanges) : input.format,
    decidedBy,
  };
}

async function resolveName(store: WorldStore, name: string): Promise<Entity | null> {
  const key = normalizeName(name);
  if (key.length === 0) return null;
  const found = await store.entities.findByKey(key);
  return found.sort((a, b) => b.importance - a.importance || b.lastSeen - a.lastSeen)[0] ?? null;
}
