import type { StateValue } from './world.js';

/** Words of blood kinship in a person's `relation` to the user. */
const KIN = /\b(?:brother|sister|mom|mum|mother|dad|father|son|daughter|cousin|aunt|uncle|grand\w*|niece|nephew)\b/;
const SAME: Record<string, string> = {
  mom: 'mother',
  mum: 'mother',
  dad: 'father',
  grandma: 'grandmother',
  grandpa: 'grandfather',
};

/**
 * Kinship does not change: a person recorded as the user's sister and later called a best friend is most likely
 * another person with the same first name, or one of the two readings is wrong, so the change of `relation` is a
 * contradiction to flag for the user, not an update. Not a conflict: the same kin said another way ("mom" →
 * "mother", "sister" → "little sister"), and changes with no kin word ("girlfriend" → "wife", "friend" →
 * "colleague"). Pure.
 */
export function kinshipConflict(attribute: string, from: StateValue, to: StateValue): boolean {
  if (attribute !== 'relation' || typeof from !== 'string' || typeof to !== 'string') return false;
  const a = sameKin(from);
  const b = sameKin(to);
  if (a.includes(b) || b.includes(a)) return false;
  return KIN.test(a) || KIN.test(b);
}

/** A relation lower-cased, each kin word in one spelling ("Mom" → "mother"). */
function sameKin(relation: string): string {
  return relation
    .toLowerCase()
    .trim()
    .replace(/\w+/g, (w) => SAME[w] ?? w);
}
