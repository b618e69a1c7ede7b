import { commitmentsSweepPhase } from './commitments-phase.js';
import { contradictionSupersessionPhase } from './contradictions-phase.js';
import { deepDreamsPhase, megaDreamsPhase } from './dreams-phase.js';
import { mergeDuplicatesPhase } from './merge-phase.js';
import { microDreamsPhase } from './micro-dreams-phase.js';
import { periodRefinementPhase } from './periods-phase.js';
import type { SleepPhase } from './phase.js';
import { llmProceduresPhase } from './procedures-llm-phase.js';
import { sleepTasksPhase } from './tasks/phase.js';
import { ttlPhase } from './tasks/ttl.js';

/**
 * The cycle's phases after salience, tiers, confidence decay and procedure mining, in the order they run (the KIP
 * sleep spec's phase numbers in brackets). Each phase module owns one concern; add new ones here. The sleep-task
 * phase [2] runs after the phases that do the tasks' work, and TTL cleanup [12] last.
 */
export const PHASES: readonly SleepPhase[] = [
  commitmentsSweepPhase(), // [5C]
  mergeDuplicatesPhase, // [6]
  contradictionSupersessionPhase(), // [9]
  periodRefinementPhase(),
  microDreamsPhase(), // [10A]
  deepDreamsPhase(),
  megaDreamsPhase(),
  llmProceduresPhase, // pie-paper §4.4 with a model
  sleepTasksPhase, // [2], after the phases that do its tasks' work
  ttlPhase,
];
