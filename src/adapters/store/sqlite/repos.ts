import type { SyncRepos } from './connection.js';
import { createDumpStore } from './dump.js';
import { createEmbeddingRepo } from './embeddings.js';
import { createEntityRepo } from './entities.js';
import { createEpisodeRepo } from './episodes.js';
import { createForgetStore } from './forget.js';
import { createFactRepo } from './facts.js';
import { createInsightRepo } from './insights.js';
import { createJournalRepo } from './journal.js';
import { createLeaseRepo } from './leases.js';
import { createLlmCacheRepo } from './llm-cache.js';
import { createMaintenanceLogRepo } from './maintenance.js';
import { createMaintenanceStore } from './maintenance-store.js';
import { createMentionRepo } from './mentions.js';
import { createPyramidStore } from './pyramid.js';
import { createPeriodRepo } from './periods.js';
import { createPersonalBenchRepo } from './personal-bench.js';
import { createProcedureRepo } from './procedures.js';
import { createRelationshipRepo } from './relationships.js';
import { createIngestRunRepo } from './runs.js';
import { createTransitionRepo } from './transitions.js';
import { createSearchRepo } from './search.js';
import { createSleepTaskRepo } from './sleep-tasks.js';
import type { Statements } from './sql.js';
import { createRevision, createStats } from './stats.js';

export function createRepos(s: Statements, now: () => number): SyncRepos {
  return {
    episodes: createEpisodeRepo(s, now),
    entities: createEntityRepo(s),
    transitions: createTransitionRepo(s),
    facts: createFactRepo(s),
    relationships: createRelationshipRepo(s),
    mentions: createMentionRepo(s),
    periods: createPeriodRepo(s),
    procedures: createProcedureRepo(s),
    runs: createIngestRunRepo(s),
    llmCache: createLlmCacheRepo(s),
    journal: createJournalRepo(s),
    maintenance: createMaintenanceLogRepo(s),
    search: createSearchRepo(s),
    embeddings: createEmbeddingRepo(s),
    upkeep: createMaintenanceStore(s),
    dump: createDumpStore(s),
    pyramid: createPyramidStore(s),
    tasks: createSleepTaskRepo(s),
    insights: createInsightRepo(s),
    leases: createLeaseRepo(s),
    forget: createForgetStore(s),
    personalBench: createPersonalBenchRepo(s),
    stats: createStats(s),
    revision: createRevision(s),
  };
}
