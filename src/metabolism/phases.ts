import type { SleepPhase } from './phase.js';

/**
 * The cycle's phases after salience, tiers, confidence decay and procedure mining, in the order they run (the KIP
 * sleep spec's phase numbers in brackets). Each phase module owns one concern; add new ones here.
 */
export const PHASES: readonly SleepPhase[] = [];
