import type { MentalModel, Observation } from '../ports/pyramid-store.js';
import { jaroWinkler } from '../resolve/similarity.js';

/** The models every pyramid has (spec: self = the agent, user = the person, system = the technical environment). */
export const BASE_MODELS = ['self', 'user', 'system'] as const;

/** A model name: lower case, hyphenated, letters and digits only ("Maya Chen" → "maya-chen"); "" when nothing is left. */
export function modelSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

const SYSTEM_WORDS =
  /\b(install(ed|ing)?|config(uration|ured)?|settings?|terminal|shell|editor|ide|vim|neovim|vs ?code|os|macos|linux|windows|docker|database|sqlite|postgres|api key|version|laptop|keyboard|dotfiles|plugin|extension|cli)\b/i;
const SELF_START = /^(i|i'm|i've|i'll|the assistant|assistant|as an assistant)\b/i;

/** Entity types that get a model of their own when an observation is about one (discovered topics). */
export const TOPIC_TYPES = new Set(['person', 'project', 'organization']);

/** Observations about one entity that warrant a model of its own (spec: entities "that warrant separate tracking"). */
export const TOPIC_MIN_OBSERVATIONS = 3;
/** At most this many new topic models per run without a model: the most observed entities first. */
export const TOPIC_MAX_NEW = 25;

/**
 * The model an observation goes to without a model (deterministic rules): the topic model of the entity it is
 * about when that entity is a person, project or organization that warrants one (`topic`: it has a model already or
 * at least TOPIC_MIN_OBSERVATIONS observations); "system" for tools and setup; "self" for the assistant speaking of
 * itself; otherwise "user".
 */
export function assignWithoutModel(
  observation: Pick<Observation, 'text'>,
  entity: { name: string; type: string } | null,
  topic = true,
): string {
  if (entity && topic && TOPIC_TYPES.has(entity.type)) {
    const slug = modelSlug(entity.name);
    if (slug !== '' && !(BASE_MODELS as readonly string[]).includes(slug)) return slug;
  }
  if (entity?.type === 'tool' || SYSTEM_WORDS.test(observation.text)) return 'system';
  if (SELF_START.test(observation.text.trim())) return 'self';
  return 'user';
}

export function baseModel(name: (typeof BASE_MODELS)[number], now: number): MentalModel {
  return { id: `model-${name}`, name, description: '', isBase: true, updatedAt: now };
}

/**
 * The known model names closest to `asked` (a typo, another spelling, or part of a name: "maya" → "maya-chen"),
 * best first. Pure.
 */
export function closeModelNames(asked: string, known: readonly string[], limit = 3): string[] {
  const want = modelSlug(asked);
  if (want === '') return [];
  return known
    .map((name) => ({
      name,
      score: Math.max(jaroWinkler(want, name), name.split('-').includes(want) || want.includes(name) ? 0.9 : 0),
    }))
    .filter((s) => s.score >= 0.75)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
    .slice(0, limit)
    .map((s) => s.name);
}
