import { PieError } from '../domain/errors.js';
import { CORE_ENTITY_TYPES } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';

/** At most this many known types are named in the error for an unknown one. */
const NAMED_TYPES = 30;

/** Pure: a type's spelling-free key: lower case, without separators (`ClinicalTrial`, `clinical_trial`, `clinical trial`). */
function typeKey(type: string): string {
  return type.toLowerCase().replace(/[^\p{L}\p{N}$]+/gu, '');
}

/**
 * Pure: the stored type a filter means. Types are stored lower case (`tool`, `clinical_trial`) and KIP spells them
 * UpperCamelCase (`Tool`, `ClinicalTrial`), so the match is the exact spelling, else the one type equal without
 * regard to case, else the one equal without regard to case and separators. PIE's core types (person, project, tool,
 * …) are always known, stored or not: a memory without any tool yet has none at any time, which is an answer, not a
 * mistake. An unknown type, or one that could mean several stored types, is INVALID_ARGUMENT naming the known ones.
 */
export function matchEntityType(input: { asked: string; stored: readonly string[] }): string {
  const asked = input.asked.trim();
  const known = [...new Set([...input.stored, ...CORE_ENTITY_TYPES])];
  if (known.includes(asked)) return asked;
  for (const same of [
    (t: string) => t.toLowerCase() === asked.toLowerCase(),
    (t: string) => typeKey(t) === typeKey(asked),
  ]) {
    const found = known.filter(same);
    if (found.length === 1 && found[0] !== undefined) return found[0];
    if (found.length > 1) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `The type "${asked}" could mean ${found.join(' or ')}; give one of them exactly as written.`,
        { details: { type: asked, candidates: found } },
      );
    }
  }
  const stored = [...input.stored].sort();
  throw new PieError('INVALID_ARGUMENT', unknownType(asked, stored), { details: { type: asked, known: stored } });
}

function unknownType(asked: string, stored: readonly string[]): string {
  if (stored.length === 0) return `No entity has the type "${asked}": the memory has no entities yet.`;
  const named =
    stored.length > NAMED_TYPES
      ? `${stored.slice(0, NAMED_TYPES).join(', ')} and ${stored.length - NAMED_TYPES} more`
      : stored.join(', ');
  return `No entity has the type "${asked}"; the types in this memory are ${named}.`;
}

/** The stored type `type` means (see matchEntityType), from the store's list of types. */
export async function resolveEntityType(input: { store: WorldStore; type: string }): Promise<string> {
  return matchEntityType({ asked: input.type, stored: await input.store.entities.types() });
}
