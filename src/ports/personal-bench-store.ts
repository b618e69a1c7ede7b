/**
 * The personal benchmark's storage (`pie bench personal`, docs/evaluation.md "Personal benchmark"): one question
 * set generated from the user's own turns, kept fixed across PIE versions until the user regenerates it, and the
 * figures of every run on it, so a run can be compared with the one before.
 */

export const PERSONAL_KINDS = ['single-fact', 'temporal', 'knowledge-update', 'multi-session', 'abstention'] as const;
export type PersonalKind = (typeof PERSONAL_KINDS)[number];

/** A turn of the history: its conversation (episode) and its position in it. */
export interface TurnRef {
  episodeId: string;
  seq: number;
}

/** An evidence turn as stored: with a hash of the turn's text, so a turn that changed since is noticed. */
export interface EvidenceTurn extends TurnRef {
  textHash: string;
}

export interface PersonalQuestion {
  /** Stable: derived from the kind, the question and the evidence. */
  id: string;
  kind: PersonalKind;
  question: string;
  /** The expected answer in words (for abstention: why nothing answers it). */
  answer: string;
  /** The turns that hold the answer, oldest first; none for abstention. */
  evidence: EvidenceTurn[];
  createdAt: number;
  /** `templates`, or the model that wrote the question (`openai:gpt-5-mini`). */
  generator: string;
}

export interface PersonalQuestionSet {
  id: string;
  /** `templates` or the model's name. */
  generator: string;
  createdAt: number;
  /** How the set was made (turns read, statements found, model usage …), shown by the report. */
  meta: Record<string, unknown>;
  questions: PersonalQuestion[];
}

/** What a set replaced or holds, without its questions. */
export interface PersonalSetSummary {
  id: string;
  generator: string;
  createdAt: number;
  questions: number;
  runs: number;
}

export interface PersonalRun {
  id: string;
  setId: string;
  /** Wall-clock milliseconds of the run (runs are listed in the order they were added). */
  ranAt: number;
  /** The run's figures as the benchmark wrote them (a JSON object; the benchmark validates what it reads back). */
  figures: Record<string, unknown>;
}

export interface PersonalBenchRepo {
  /** The question set in use (questions in their stored order), or null when none was generated yet. */
  currentSet(): Promise<PersonalQuestionSet | null>;
  /**
   * Atomically makes `set` the one in use: the previous set and its questions are deleted (its runs are kept, with
   * their figures); returns a summary of what was replaced, or null.
   */
  replaceSet(set: PersonalQuestionSet): Promise<PersonalSetSummary | null>;
  addRun(run: PersonalRun): Promise<void>;
  /** Runs on a set, latest first (at most `limit`). */
  runs(input: { setId: string; limit: number }): Promise<PersonalRun[]>;
}
