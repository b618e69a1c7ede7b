import type { WorldStore } from '../../../ports/world-store.js';
import type { VectorMode } from './connection.js';
import type { HnswIndexes } from './hnsw.js';
import { createDumpStore } from './dump.js';
import { createEmbeddingRepo } from './embeddings.js';
import { createEntityRepo } from './entities.js';
import { createEpisodeRepo } from './episodes.js';
import { createFactRepo } from './facts.js';
import { createForgetStore } from './forget.js';
import { createJournalRepo, createMaintenanceLogRepo } from './journal.js';
import { createLlmCacheRepo } from './llm-cache.js';
import { createMaintenanceStore } from './maintenance-store.js';
import { createSleepTaskRepo } from './sleep-tasks.js';
import { createLeaseRepo } from './leases.js';
import { createInsightRepo } from './insights.js';
import { createMentionRepo } from './mentions.js';
import { createPeriodRepo } from './periods.js';
import { createPersonalBenchRepo } from './personal-bench.js';
import { createPyramidStore } from './pyramid.js';
import { createProcedureRepo } from './procedures.js';
import { createRelationshipRepo } from './relationships.js';
import { createIngestRunRepo } from './runs.js';
import { createSearchRepo } from './search.js';
import type { SearchStats } from './search-stats.js';
import type { Sql } from './sql.js';
import { createRevision, createStats } from './stats.js';
import { createTransitionRepo } from './transitions.js';

export type PgRepos = Omit<WorldStore, 'transaction' | 'info' | 'close'>;

/** Every repository of one store object, all running their SQL through `sql`. */
export function createPgRepos(
  sql: Sql,
  context: {
    now: () => number;
    vectors: VectorMode;
    hnsw: HnswIndexes | null;
    searchStats: SearchStats;
    inTransaction: () => boolean;
  },
): PgRepos {
  return {
    episodes: createEpisodeRepo(sql, context.now),
    entities: createEntityRepo(sql),
    transitions: createTransitionRepo(sql),
    facts: createFactRepo(sql),
    relationships: createRelationshipRepo(sql),
    mentions: createMentionRepo(sql),
    periods: createPeriodRepo(sql),
    procedures: createProcedureRepo(sql),
    runs: createIngestRunRepo(sql),
    llmCache: createLlmCacheRepo(sql),
    journal: createJournalRepo(sql),
    maintenance: createMaintenanceLogRepo(sql),
    search: createSearchRepo(sql, context.searchStats),
    embeddings: createEmbeddingRepo(sql, { hnsw: context.hnsw, inTransaction: context.inTransaction }),
    upkeep: createMaintenanceStore(sql),
    dump: createDumpStore(sql, { vectors: context.vectors, hnsw: context.hnsw, inTransaction: context.inTransaction }),
    pyramid: createPyramidStore(sql),
    tasks: createSleepTaskRepo(sql),
    insights: createInsightRepo(sql),
    leases: createLeaseRepo(sql),
    forget: createForgetStore(sql, { inTransaction: context.inTransaction, searchStats: context.searchStats }),
    personalBench: createPersonalBenchRepo(sql),
    stats: createStats(sql),
    revision: createRevision(sql),
  };
}
