/**
 * LoCoMo evidence ids are dialog ids "D<session>:<turn>", but the published file has broken ones: several ids in one
 * string ("D8:6; D9:17", "D9:1 D4:4"), a stray colon ("D:11:26"), zero padding ("D30:05"), a bare "D", and ids that
 * name no turn. Every raw entry is normalized; what cannot be mapped to an existing turn is counted, never fatal.
 */
export interface EvidenceReport {
  /** Raw evidence entries seen. */
  raw: number;
  /** Entries whose text had to be repaired (split, colon, padding) to yield valid ids. */
  repaired: number;
  /** Entries that yield no id at all ("D", empty). */
  unparseable: number;
  /** Parsed ids that name no turn of the conversation. */
  missing: number;
  /** Questions left with no usable evidence id (excluded from recall). */
  questionsWithout: number;
}

export function emptyEvidenceReport(): EvidenceReport {
  return { raw: 0, repaired: 0, unparseable: 0, missing: 0, questionsWithout: 0 };
}

const ID = /D\s*:?\s*(\d+)\s*:\s*(\d+)/g;

/** Parses one raw entry into canonical ids "D<n>:<m>" (no leading zeros). */
export function parseEvidenceEntry(entry: string): string[] {
  const out: string[] = [];
  for (const m of entry.matchAll(ID)) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  return out;
}

/** The usable evidence ids of one question (deduplicated, existing turns only), counting problems into `report`. */
export function normalizeEvidence(input: {
  evidence: unknown;
  known: ReadonlySet<string>;
  report: EvidenceReport;
}): string[] {
  const { known, report } = input;
  const entries = Array.isArray(input.evidence) ? input.evidence : [];
  const ids = new Set<string>();
  for (const raw of entries) {
    report.raw += 1;
    const text = typeof raw === 'string' ? raw : '';
    const parsed = parseEvidenceEntry(text);
    if (parsed.length === 0) {
      report.unparseable += 1;
      continue;
    }
    if (parsed.length > 1 || parsed[0] !== text.trim()) report.repaired += 1;
    for (const id of parsed) {
      if (known.has(id)) ids.add(id);
      else report.missing += 1;
    }
  }
  if (ids.size === 0) report.questionsWithout += 1;
  return [...ids];
}
