import type { LlmClient } from '../llm/index.js';
import type { WorldStore } from '../ports/world-store.js';
import type { RunJournal } from './journal.js';
import type { SalienceResult, SleepScope } from './plan.js';

/**
 * What a sleep phase gets. In a real run `store` is the cycle's transaction and `journal` records every row the
 * phase changes (each change goes through `journal.change`, so `pie undo` can put it back); in a dry run `journal`
 * is null and the phase must only read and report what it would do.
 */
export interface PhaseInput {
  store: WorldStore;
  journal: RunJournal | null;
  /** The cycle's scope (a phase that runs in several scopes may do less in the lighter ones). */
  scope: SleepScope;
  now: number;
  runId: string;
  newId: () => string;
  /**
   * The configured model, or null: model-only work is then reported as skipped, never faked. In a dry run
   * (`journal` null) a phase must not call it: it reports what it would ask instead.
   */
  llm: LlmClient | null;
  /** Importance and tiers as scored at the start of the cycle. */
  salience: SalienceResult;
  onProgress?: ((text: string) => void) | undefined;
}

export interface PhaseResult {
  /** Rows changed (or, in a dry run, that would change). */
  changes: number;
  details?: Record<string, unknown>;
  /** Set when the phase did nothing because it could not run here (e.g. it needs a model): the reason. */
  skipped?: string;
  /** Findings a person should look at (overdue commitments, contradictions left open …). */
  issues?: string[];
}

/** One phase of the cycle after salience, tiers, decay and procedure mining (see PHASES in phases.ts). */
export interface SleepPhase {
  name: string;
  /** The scopes that run it; other scopes report it as skipped. */
  scopes: readonly SleepScope[];
  run(input: PhaseInput): Promise<PhaseResult>;
}
