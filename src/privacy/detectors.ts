/**
 * What must not leave the machine in a prompt: secrets (keys, tokens, private keys, passwords said in context,
 * credentials in URLs) and personal data (emails, phone numbers, card and bank numbers, government ids, street
 * addresses). Each detector finds spans of one category; `findSensitive` merges them, longest first. Pure.
 */

export const REDACTION_CATEGORIES = ['secret', 'email', 'phone', 'card', 'iban', 'government_id', 'address'] as const;
export type RedactionCategory = (typeof REDACTION_CATEGORIES)[number];

export interface Sensitive {
  category: RedactionCategory;
  start: number;
  end: number;
  value: string;
}

interface Detector {
  category: RedactionCategory;
  re: RegExp;
  /** The capture group holding the sensitive part (0: the whole match). */
  group?: number;
  /** Extra check on the value (a card number's checksum). */
  valid?: (value: string) => boolean;
  /** A cheap test of the whole text first: most texts hold no '@', no key prefix (the regexes are the slow part). */
  hint: RegExp | ((text: string) => boolean);
}

/**
 * One scan tells whether a text can hold any prefixed secret at all (most hold none), instead of one scan each;
 * the detectors below that share it are skipped together.
 */
const PREFIXED = /PRIVATE KEY|sk-|A[KS]IA|gh[pousr]_|github_pat_|xox|AIza|_(?:live|test)_|eyJ|Bearer|:\/\/\S*@/;

const DETECTORS: readonly Detector[] = [
  {
    category: 'secret',
    hint: PREFIXED,
    re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  },
  // Provider keys by their documented prefixes: OpenAI/Anthropic, AWS, GitHub, Slack, Google, Stripe.
  { category: 'secret', hint: PREFIXED, re: /\bsk-(?:proj-|ant-(?:api\d{2}-)?)?[A-Za-z0-9_-]{20,}/g },
  { category: 'secret', hint: PREFIXED, re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    category: 'secret',
    hint: PREFIXED,
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g,
  },
  { category: 'secret', hint: PREFIXED, re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { category: 'secret', hint: PREFIXED, re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { category: 'secret', hint: PREFIXED, re: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}\b/g },
  { category: 'secret', hint: PREFIXED, re: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { category: 'secret', hint: PREFIXED, re: /\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)/g, group: 1 },
  // The password of a URL's credentials: postgres://user:PASSWORD@host.
  { category: 'secret', hint: PREFIXED, re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:([^\s@/]+)@/gi, group: 1 },
  // A value said to be a secret: "my password is hunter22", "API_KEY=abc123…", "token: …".
  {
    category: 'secret',
    hint: /(?:pass|pwd|pin|secret|api|token)[\w -]{0,12}(?:is|was|:|=)/i,
    re: /\b(?:password|passwd|pwd|passphrase|pass ?code|pin|secret|api[_ -]?key|access[_ -]?token|auth[_ -]?token|token)\s*(?:is|was|:|=)\s*["'`]?([^\s"'`,;]{4,})/gi,
    group: 1,
  },
  // Not the password of a URL's credentials (user:pw@host), which is a secret.
  { category: 'email', hint: /@/, re: /(?<![:\w.%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g },
  {
    category: 'iban',
    hint: /[A-Z]{2}\d{2}/,
    re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g,
    valid: ibanValid,
  },
  { category: 'card', hint: /\d{4}[ -]?\d{4}[ -]?\d{4}/, re: /\b\d(?:[ -]?\d){12,18}\b/g, valid: luhnValid },
  { category: 'government_id', hint: /\d{3}-\d{2}-\d{4}/, re: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  // International (+44 20 7946 0958) or grouped national numbers ((415) 555-0132, 415-555-0132, 030 1234 5678).
  {
    category: 'phone',
    hint: /\d[\s.-]\d{3,4}[\s.-]\d{3}|\(\d{2,4}\)/,
    re: /(?=[+(\d])(?<![\w+])(?<!\d[\s.-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?|\d{2,4}[\s.-])\d{3,4}[\s.-]\d{3,5}(?![\w-])(?![\s.]\d)/g,
    valid: (v) => v.replace(/\D/g, '').length >= 9,
  },
  {
    category: 'address',
    hint: /\d\s+[A-Z]/,
    re: /\b\d{1,5}\s+(?:[A-Z][a-z]+\.?\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Square|Sq|Parkway|Pkwy|Straße|Strasse|Rue)\b\.?(?:,?\s+(?:Apt|Apartment|Suite|Unit|#)\.?\s*\w+)?/g,
  },
];

/** The sensitive spans of `text` in the given categories, in text order, never overlapping (longest wins). */
export function findSensitive(text: string, categories: ReadonlySet<RedactionCategory>): Sensitive[] {
  const found: Sensitive[] = [];
  const tested = new Map<Detector['hint'], boolean>();
  const hinted = (hint: Detector['hint']): boolean => {
    let yes = tested.get(hint);
    if (yes === undefined) tested.set(hint, (yes = typeof hint === 'function' ? hint(text) : hint.test(text)));
    return yes;
  };
  for (const d of DETECTORS) {
    if (!categories.has(d.category) || !hinted(d.hint)) continue;
    for (const m of text.matchAll(d.re)) {
      const value = m[d.group ?? 0];
      if (value === undefined || value === '' || m.index === undefined) continue;
      const start = m.index + (d.group ? m[0].indexOf(value) : 0);
      if (d.valid && !d.valid(value)) continue;
      found.push({ category: d.category, start, end: start + value.length, value });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Sensitive[] = [];
  for (const s of found) {
    const last = kept[kept.length - 1];
    if (last && s.start < last.end) continue;
    kept.push(s);
  }
  return kept;
}

/** The Luhn checksum of a card number (digits only). */
export function luhnValid(value: string): boolean {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The ISO 13616 check of an IBAN (mod 97 of the rearranged number). */
export function ibanValid(value: string): boolean {
  const iban = value.replace(/\s/g, '');
  if (iban.length < 15 || iban.length > 34) return false;
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const ch of moved) {
    const code = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of code) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
