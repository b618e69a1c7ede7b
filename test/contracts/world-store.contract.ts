import { describe } from 'vitest';
import { describeBookkeeping } from './world-store/bookkeeping.js';
import { describeDumpStore } from './world-store/dump-store.js';
import { describeEmbeddings } from './world-store/embeddings.js';
import { describeEntities } from './world-store/entities.js';
import { describeEpisodes } from './world-store/episodes.js';
import { describeForgetStore } from './world-store/forget-store.js';
import type { StoreFactory } from './world-store/fixtures.js';
import { describeHistory } from './world-store/history.js';
import { describeInsights } from './world-store/insights.js';
import { describeMaintenanceStore } from './world-store/maintenance-store.js';
import { describeNearest } from './world-store/nearest.js';
import { describePersonalBench } from './world-store/personal-bench.js';
import { describePyramidStore } from './world-store/pyramid-store.js';
import { describeQueries } from './world-store/queries.js';
import { describeRevision } from './world-store/revision.js';
import { describeSearch } from './world-store/search.js';
import { describeSleepTasks } from './world-store/sleep-tasks.js';
import { describeTierMoves } from './world-store/tier-moves.js';
import { describeWorldSearch } from './world-store/search-world.js';
import { describeTimeBounds } from './world-store/time-bounds.js';
import { describeTimeSlices } from './world-store/time-slices.js';
import { describeTransactions } from './world-store/transactions.js';

export type { StoreFactory, StoreHandle } from './world-store/fixtures.js';

/**
 * The contract every WorldStore adapter must pass. It talks to the port only (no SQL), so a PostgreSQL adapter
 * proves itself with the same tests: call this from the adapter's own test file with a factory that opens a fresh,
 * empty store and a cleanup that closes it and removes whatever it created. Each test gets a fresh store.
 */
export function describeWorldStoreContract(name: string, factory: StoreFactory): void {
  describe(`WorldStore contract: ${name}`, () => {
    describeEpisodes(factory);
    describeEntities(factory);
    describeHistory(factory);
    describeBookkeeping(factory);
    describeSearch(factory);
    describeQueries(factory);
    describeTimeSlices(factory);
    describeTimeBounds(factory);
    describeWorldSearch(factory);
    describeEmbeddings(factory);
    describeNearest(factory);
    describeMaintenanceStore(factory);
    describeTierMoves(factory);
    describeDumpStore(factory);
    describePyramidStore(factory);
    describeSleepTasks(factory);
    describeInsights(factory);
    describeForgetStore(factory);
    describePersonalBench(factory);
    describeTransactions(factory);
    describeRevision(factory);
  });
}
