import { AsyncLocalStorage } from 'node:async_hooks';
import { PieError } from '../../../domain/errors.js';
import type { WorldStats } from '../../../domain/world.js';
import type {
  EmbeddingRepo,
  EntityRepo,
  EpisodeRepo,
  FactRepo,
  IngestRunRepo,
  JournalRepo,
  LlmCacheRepo,
  MaintenanceLogRepo,
  MentionRepo,
  PeriodRepo,
  ProcedureRepo,
  RelationshipRepo,
  SearchRepo,
  TransitionRepo,
} from '../../../ports/world-store.js';
import type { DumpStore } from '../../../ports/dump-store.js';
import type { ForgetStore } from '../../../ports/forget-store.js';
import type { LeaseRepo } from '../../../ports/lease-store.js';
import type { PersonalBenchRepo } from '../../../ports/personal-bench-store.js';
import type { InsightRepo } from '../../../ports/insight-store.js';
import type { MaintenanceStore } from '../../../ports/maintenance-store.js';
import type { SleepTaskRepo } from '../../../ports/sleep-task-store.js';
import type { PyramidStore } from '../../../ports/pyramid-store.js';
import type { SyncOf } from './bind.js';
import { translateSqliteError } from './errors.js';
import { Mutex } from './mutex.js';
import type { Db } from './sql.js';

/** The synchronous repositories of one connection, with their prepared statements. */
export interface SyncRepos {
  episodes: SyncOf<EpisodeRepo>;
  entities: SyncOf<EntityRepo>;
  transitions: SyncOf<TransitionRepo>;
  facts: SyncOf<FactRepo>;
  relationships: SyncOf<RelationshipRepo>;
  mentions: SyncOf<MentionRepo>;
  periods: SyncOf<PeriodRepo>;
  procedures: SyncOf<ProcedureRepo>;
  runs: SyncOf<IngestRunRepo>;
  llmCache: SyncOf<LlmCacheRepo>;
  journal: SyncOf<JournalRepo>;
  maintenance: SyncOf<MaintenanceLogRepo>;
  search: SyncOf<SearchRepo>;
  embeddings: SyncOf<EmbeddingRepo>;
  upkeep: SyncOf<MaintenanceStore>;
  dump: SyncOf<DumpStore>;
  pyramid: SyncOf<PyramidStore>;
  tasks: SyncOf<SleepTaskRepo>;
  insights: SyncOf<InsightRepo>;
  leases: SyncOf<LeaseRepo>;
  forget: SyncOf<ForgetStore>;
  personalBench: SyncOf<PersonalBenchRepo>;
  stats: () => WorldStats;
  revision: () => string;
}

/**
 * A level of transaction nesting: depth 0 is the connection itself (the root store), depth 1 a transaction,
 * deeper levels savepoints. Open levels always form one chain, because each level admits one inner transaction at
 * a time through its mutex.
 */
export class Scope {
  active = true;
  readonly mutex = new Mutex();

  constructor(readonly depth: number) {}
}

export class Connection {
  readonly root = new Scope(0);
  /** The innermost transaction of the calling async context (set while a transaction's callback runs). */
  readonly ambient = new AsyncLocalStorage<Scope>();
  closed = false;

  constructor(
    readonly db: Db,
    readonly path: string,
    readonly schemaVersion: number,
    readonly repos: SyncRepos,
  ) {}

  /** Runs one synchronous driver operation, translating its errors. */
  exec<R>(op: () => R): R {
    try {
      return op();
    } catch (error) {
      throw translateSqliteError(error, this.path);
    }
  }

  assertOpen(): void {
    if (this.closed) throw new PieError('DB_ERROR', `The database ${this.path} is already closed.`);
  }

  /** The innermost open transaction of the calling async context, if any. */
  current(): Scope | undefined {
    const scope = this.ambient.getStore();
    return scope?.active ? scope : undefined;
  }
}

export function transactionEnded(): PieError {
  return new PieError(
    'INTERNAL',
    'This transaction has already finished; use the store passed to the transaction that is running, or the store itself.',
  );
}
