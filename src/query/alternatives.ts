import { matchKeys, questionKeywords } from './keywords.js';

/**
 * The options a choice question names, as match keys, one list per option: "Which device did I set up first, the
 * smart thermostat or the mesh network system?" → [[smart, therm], [mesh, netwo, syste]]. The options are the
 * phrases joined by "or" after the question's last comma or colon ("…, A, B or C?"); without one, the words around
 * a single "or" (what follows it, and as many keywords before it as that has, one to three). An option without a
 * searchable word ("more or less") makes it no choice; fewer than two options is none. Pure.
 */
export function questionAlternatives(question: string, exclude: readonly string[] = []): string[][] {
  const text = question.trim().replace(/[?.!\s]+$/, '');
  if (!/\bor\b/i.test(text) || /\bor not\b/i.test(text)) return [];
  const parts = text.split(/\s*[,:;]\s*/);
  const last = parts.length - 1;
  let options: string[];
  if (last > 0 && /(^|\s)or\s/i.test(parts[last] ?? '')) {
    // "…, A or B" and "…, A, B, or C": the last part's options, and the short parts before it (not the first part,
    // which asks the question).
    options = (parts[last] ?? '').split(/(?:^|\s+)or\s+/i).filter((o) => o.trim() !== '');
    for (let i = last - 1; i > 0 && (parts[i] ?? '').split(/\s+/).length <= 4; i--) options.unshift(parts[i] ?? '');
  } else {
    const sides = text.split(/\s+or\s+/i);
    if (sides.length !== 2) return [];
    const [left = '', right = ''] = sides;
    // The words either side of the "or" are what it joins: a question word there ("more or less") joins no things.
    const lastWord = left.split(/\s+/).at(-1) ?? '';
    const firstWord = right.replace(/^(the|a|an|my)\s+/i, '').split(/\s+/)[0] ?? '';
    if (questionKeywords(lastWord).length === 0 || questionKeywords(firstWord).length === 0) return [];
    // As many words of the left side as the right option has (one to three): "a national park or a theme park".
    const size = Math.min(3, Math.max(1, questionKeywords(right, exclude).length));
    options = [questionKeywords(left, exclude).slice(-size).join(' '), right];
  }
  const keys = options.map((o) => matchKeys(questionKeywords(o, exclude)));
  if (keys.length < 2 || keys.some((k) => k.length === 0)) return [];
  return keys;
}
