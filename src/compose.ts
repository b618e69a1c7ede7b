/**
 * The composition root: configuration in, dependencies out. The only module that constructs adapters.
 */
import { openSqliteStore } from './adapters/store/sqlite/index.js';
import { createTiktokenTokenizer } from './adapters/tokenizer/tiktoken.js';
import type { Config } from './config/config.js';
import type { Clock } from './ports/clock.js';
import type { Tokenizer } from './ports/tokenizer.js';
import type { WorldStore } from './ports/world-store.js';

export interface Services {
  config: Config;
  store: WorldStore;
  clock: Clock;
  /** Loaded on first use: the rank table takes about a second to load. */
  tokenizer(): Tokenizer;
  close(): Promise<void>;
}

export function createClock(config: Pick<Config, 'now'>): Clock {
  const fixed = config.now;
  return fixed === null ? { now: () => Date.now() } : { now: () => fixed };
}

export async function compose(input: { config: Config; readonly?: boolean }): Promise<Services> {
  const { config } = input;
  const clock = createClock(config);
  const store = await openSqliteStore({ path: config.dbPath, readonly: input.readonly ?? false });
  let tokenizer: Tokenizer | undefined;
  return {
    config,
    store,
    clock,
    tokenizer: () => (tokenizer ??= createTiktokenTokenizer()),
    close: () => store.close(),
  };
}
