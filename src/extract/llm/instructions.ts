import { CORE_ENTITY_TYPES } from '../../domain/world.js';

/** Relationship types the model is encouraged to use (others are allowed in UPPER_SNAKE_CASE). */
export const SUGGESTED_RELATIONSHIP_TYPES = [
  'WORKS_ON',
  'COLLABORATES_WITH',
  'USES',
  'ABOUT',
  'CAUSED_BY',
  'CONTRADICTS',
  'RELATED_TO',
  'MEMBER_OF',
  'LIVES_IN',
  'FAMILY_OF',
  'MENTORS',
  'BUILT_WITH',
  'OWNS',
  'VISITED',
  'FROM',
  'READ',
  'WATCHED',
  'LISTENED_TO',
  'PLAYED',
] as const;

/**
 * The system prompt of extract-batch@3 (version 2 added observations; version 3 suggests the relationship types the
 * offline rules also write: OWNS, VISITED, FROM and the point relationships READ, WATCHED, LISTENED_TO, PLAYED). Any
 * change in meaning needs a new prompt version (it keys the cache).
 * The model classifies; code decides timestamps, identities and history.
 */
export function extractionInstructions(): string {
  return `You maintain the memory of one person ("the user") by extracting a knowledge graph from a day of their chat conversations with an AI assistant. The assistant's replies are context, not facts about the user, unless the user confirms or acts on them.

Answer with one JSON object. Leave out empty lists and unknown values. Fields:

entities — things that matter in the user's world. "type" is one of ${CORE_ENTITY_TYPES.join(', ')} (another lowercase word only if none fits). "name" is the canonical name: the full proper name ("Science Research Academy", "Maya Chen"), never a pronoun or a vague description. Other names used for it (abbreviations, nicknames, spellings) go in "aliases". When it is an entity listed under "Known world", use exactly the known name and set "matchesExisting" to it. "state" holds a few short attribute → value pairs true as of this conversation, e.g. {"role": "designer", "city": "Berlin", "stage": "prototype"}; values are short strings, numbers or booleans. Skip generic things ("a meeting", "the code", "the weather").

stateChanges — something about an entity changed compared with the known world or with earlier in the day: "entityName", "attribute" (the state attribute that changed), "oldStateAspect" (the previous value, if known), "newStateAspect" (the new value), "whatChanged" (one sentence), "isContradiction" (true when the new information conflicts with what was known rather than being a natural next step), "confidence" 0–1.

relationships — "source" and "target" are entity names; "type" in UPPER_SNAKE_CASE, preferably one of ${SUGGESTED_RELATIONSHIP_TYPES.join(', ')}; "properties" for details ({"role": "co-founder"}); "ended": true when the conversation says the relationship ended ("Maya left the team").

beliefs — opinions and convictions the USER holds (not the assistant's): "statement", "domain", "confidence" 0–1; "replaces": the statement of an earlier belief (known or from earlier in the day) that this one reverses.

decisions — choices the user made: "summary", "reasoning", "alternatives" considered, "relatedEntities" (entity names).

actions — notable things someone did: "actor", "verb", "object" (optional).
locations — places where things happened (optional).

Every entity, stateChange, relationship, belief, decision and action has "episodeId": the id of the conversation it came from (c1, c2, …).
"eventTime" (YYYY-MM-DD) only when the conversation states the date of that fact ("we launched on March 3rd"); otherwise leave it out — PIE dates everything by its conversation.

periodContext — the life period this day belongs to ("UMD freshman year", "Berlin job search"); keep the known current period while it still fits.
summary — one paragraph on what happened across the conversations.
significance — 0–1: how much this day matters for understanding the user's life and work, judged by content, not length (small talk and one-off lookups about 0.1; new projects, major decisions and life events 0.8 or more).
userState — one or two words for the user's state (exploratory, frustrated, decisive, learning, …).
episodes — one entry per conversation: "id" (c1, c2, …), "summary" (one sentence), "significance" 0–1, "userState".
observations — a few first-person sentences worth remembering about the user that the graph above does not hold (habits, preferences, how they work or feel: "User prefers writing specs before code"): "text", "importance" 1–10 (1 trivial, 5 normal, 7 notable, 10 critical), "about" (the entity name it concerns, if any), "episodeId". Leave it out when there is nothing beyond the graph.

Extract only what the conversations support; never invent facts, dates or names. Keep the language of the conversations for names and values.`;
}
