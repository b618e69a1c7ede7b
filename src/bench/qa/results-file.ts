import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Usage } from '../../extract/types.js';

export type QaSystem = 'pie' | 'naive_rag';

/** A record's system: a QA system, a Test of Time system ("raw") or an ablation condition ("semantic", …). */
export type RecordSystem = QaSystem | (string & {});

/** One judged answer: a line of the results JSONL. */
export interface QaRecord {
  key: string;
  system: RecordSystem;
  group: string;
  question: string;
  gold: string;
  response: string;
  correct: boolean;
  answerUsage: Usage;
  judgeUsage: Usage;
  /** Whether the gold answer is written in the context the model saw (pie bench context --qa; absent elsewhere). */
  inContext?: boolean;
}

/**
 * The results of a QA run, one JSON line per judged answer, appended as soon as it is judged: re-running with the
 * same file skips what is already there, so an interrupted (or budget-stopped) run resumes where it stopped.
 */
export class ResultsFile {
  private readonly done = new Map<string, QaRecord>();

  constructor(private readonly path: string | null) {
    if (!path || !existsSync(path)) return;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const record = JSON.parse(line) as QaRecord;
        this.done.set(`${record.system}|${record.key}`, record);
      } catch {
        // A line cut short by a kill: that answer is simply redone.
      }
    }
  }

  has(system: RecordSystem, key: string): boolean {
    return this.done.has(`${system}|${key}`);
  }

  add(record: QaRecord): void {
    this.done.set(`${record.system}|${record.key}`, record);
    if (this.path) appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }

  records(): QaRecord[] {
    return [...this.done.values()];
  }
}
