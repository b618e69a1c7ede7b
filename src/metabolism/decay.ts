/**
 * Strength-aware confidence decay (KIP sleep mode, phase 7): facts nobody has reinforced lose confidence week by
 * week, slowly for strong memories (important or recently seen entities), faster for neglected ones. Decay never
 * deletes: it stops at a floor, and certain facts (confidence 1) are never decayed.
 */

export interface DecayRules {
  /** Weekly factor for strong memories. */
  strongFactor: number;
  /** Weekly factor for neglected ones. */
  weakFactor: number;
  /** Confidence never decays below this; facts at or below it are left alone. */
  floor: number;
  /** An entity at least this important is strong. */
  strongImportance: number;
  /** An entity seen within this many days is strong. */
  strongRecencyDays: number;
}

export const DEFAULT_DECAY: DecayRules = {
  strongFactor: 0.98,
  weakFactor: 0.9,
  floor: 0.3,
  strongImportance: 0.3,
  strongRecencyDays: 30,
};

const WEEK_MS = 7 * 86_400_000;

/** Weeks of neglect to charge now: since the later of the last decay and the entity's last reinforcement. */
export function weeksToCharge(input: { now: number; lastDecayAt: number | null; lastSeen: number }): number {
  const since = Math.max(input.lastDecayAt ?? Number.NEGATIVE_INFINITY, input.lastSeen);
  return Math.max(0, (input.now - since) / WEEK_MS);
}

/** The new confidence, or null when the fact is left as it is. */
export function decayedConfidence(
  input: { confidence: number; importance: number; recencyDays: number; weeks: number },
  rules: DecayRules = DEFAULT_DECAY,
): number | null {
  if (input.confidence >= 1 || input.confidence <= rules.floor || input.weeks <= 0) return null;
  const strong = input.importance >= rules.strongImportance || input.recencyDays < rules.strongRecencyDays;
  const factor = strong ? rules.strongFactor : rules.weakFactor;
  const value = Math.max(rules.floor, Math.round(input.confidence * factor ** input.weeks * 1000) / 1000);
  return value === input.confidence ? null : value;
}
