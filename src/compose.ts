/**
 * The composition root: configuration in, dependencies out. The only module that constructs adapters.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createEmbedder } from './adapters/embed/ai-sdk.js';
import { createFakeEmbedder } from './adapters/embed/fake.js';
import { createLanguageModel } from './adapters/llm/ai-sdk.js';
import { createFakeModelFromFile } from './adapters/llm/fake-file.js';
import {
  changeEncryption,
  looksEncrypted,
  openSqliteStore,
  refuseDirectory,
  type CipherChangeSummary,
} from './adapters/store/sqlite/index.js';
import { createTiktokenTokenizer } from './adapters/tokenizer/tiktoken.js';
import { databaseKey, isPostgresUrl, type Config, type Env } from './config/config.js';
import { DEFAULT_MEMORY, memorySchema } from './config/memory.js';
import { PieError } from './domain/errors.js';
import { createLlmExtractor } from './extract/llm/index.js';
import { createOfflineExtractor } from './extract/offline/index.js';
import type { Extractor } from './extract/types.js';
import {
  createLlmClient,
  formatModelRef,
  loadPrices,
  parseModelRef,
  selectModel,
  type LlmClient,
  type ModelSelection,
} from './llm/index.js';
import type { Clock } from './ports/clock.js';
import type { Embedder } from './ports/embedder.js';
import type { LanguageModel } from './ports/llm.js';
import type { Tokenizer } from './ports/tokenizer.js';
import type { WorldStore } from './ports/world-store.js';
import { createEntityVerifier } from './resolve/verify-prompt.js';
import type { MatchVerifier } from './resolve/resolver.js';
import { redactionPolicy } from './privacy/policy.js';
import { redactingEmbedder, redactingModel } from './privacy/redacting-model.js';

export interface Services {
  config: Config;
  env: Env;
  store: WorldStore;
  clock: Clock;
  newId: () => string;
  /** Loaded on first use: reading the rank table takes about 0.2 s. */
  tokenizer(): Tokenizer;
  close(): Promise<void>;
}

export function createClock(config: Pick<Config, 'now'>): Clock {
  const fixed = config.now;
  return fixed === null ? { now: () => Date.now() } : { now: () => fixed };
}

export async function compose(input: {
  config: Config;
  env: Env;
  readonly?: boolean;
  /** A SQLite file that does not exist yet is refused instead of created (commands that only read or change one). */
  existing?: boolean;
  /** A tokenizer to share (it only counts tokens); default: one of these services' own, loaded on first use. */
  tokenizer?: () => Tokenizer;
}): Promise<Services> {
  const { config } = input;
  const clock = createClock(config);
  const store = await openStore(config, input.env, {
    readonly: input.readonly ?? false,
    existing: input.existing ?? false,
  });
  return {
    config,
    env: input.env,
    store,
    clock,
    newId: () => randomUUID(),
    tokenizer: input.tokenizer ?? lazyTokenizer(),
    close: () => store.close(),
  };
}

function lazyTokenizer(): () => Tokenizer {
  let tokenizer: Tokenizer | undefined;
  return () => (tokenizer ??= createTiktokenTokenizer());
}

/**
 * The services of several memories of one PostgreSQL database (`pie serve --memories`, `pie mcp --http
 * --memories`), each composed as `--memory NAME` would be: its own store (pool and schema), LLM cache and clock.
 * Only the tokenizer, a pure counter, is shared. All are opened now, so a memory that cannot be opened stops the
 * start; if one fails, those already open are closed.
 */
export async function composeMemories(input: {
  config: Config;
  env: Env;
  readonly?: boolean;
  names: readonly string[];
}): Promise<Map<string, Services>> {
  if (input.config.dbUrl === undefined) {
    throw new PieError('INVALID_ARGUMENT', 'Several memories can be served only from a PostgreSQL database.');
  }
  const tokenizer = lazyTokenizer();
  const opened = new Map<string, Services>();
  try {
    for (const name of input.names) {
      const config = { ...input.config, memory: name === DEFAULT_MEMORY ? undefined : name };
      opened.set(name, await compose({ config, env: input.env, readonly: input.readonly ?? false, tokenizer }));
    }
  } catch (error) {
    await Promise.allSettled([...opened.values()].map((s) => s.close()));
    throw error;
  }
  return opened;
}

/**
 * SQLite for a path (the default), PostgreSQL for a postgres:// URL (--db or PIE_DB). A PostgreSQL memory lives in
 * the schema "pie" of the URL's database; `readonly` is a SQLite notion (the server's permissions decide there).
 */
async function openStore(
  config: Config,
  env: Env,
  options: { readonly: boolean; existing: boolean },
): Promise<WorldStore> {
  if (config.dbUrl !== undefined) {
    if (databaseKey(env) !== undefined) {
      throw new PieError(
        'UNSUPPORTED',
        'PIE_DB_KEY encrypts a SQLite file; a PostgreSQL memory is protected by the server (TLS, disk encryption), so unset PIE_DB_KEY.',
      );
    }
    return openPostgres(config.dbUrl, config.memory);
  }
  return openSqliteStore({ path: config.dbPath, ...options, key: databaseKey(env) });
}

/** The PostgreSQL store of a memory (its schema); the driver loads only for a postgres:// URL. */
async function openPostgres(url: string, memory: string | undefined): Promise<WorldStore> {
  const { openPostgresStore } = await import('./adapters/store/postgres/index.js');
  const schema = memorySchema(memory);
  return openPostgresStore({ url, ...(schema === undefined ? {} : { schema }) });
}

/**
 * Opens the memory at `location`, a SQLite file path or a postgres:// URL (for `pie migrate-store`, which opens two).
 * A SQLite file must exist unless `create`; PIE_DB_KEY applies to SQLite files only.
 */
export async function openStoreAt(input: {
  location: string;
  env: Env;
  create: boolean;
  /** A memory in a PostgreSQL database (validated by config/memory.ts); undefined: the default one. */
  memory?: string | undefined;
}): Promise<WorldStore> {
  const { location, env } = input;
  if (isPostgresUrl(location)) return openPostgres(location, input.memory);
  if (input.memory !== undefined) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${location} is a SQLite file, which holds one memory; a memory name applies only to a postgres:// URL.`,
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${location.replace(/\/\/[^@/]*@/, '//***@')}" is neither a SQLite file path nor a postgres:// URL.`,
    );
  }
  if (!input.create && !existsSync(location)) {
    throw new PieError('FILE_NOT_FOUND', `There is no SQLite memory at ${location}.`);
  }
  return openSqliteStore({ path: location, readonly: false, key: databaseKey(env) });
}

/** Whether the configured database file is encrypted (its header is not SQLite's plain-text one); a directory is refused. */
export function databaseIsEncrypted(config: Pick<Config, 'dbPath' | 'dbUrl'>): boolean {
  if (config.dbUrl !== undefined) return false;
  refuseDirectory(config.dbPath);
  return looksEncrypted(config.dbPath);
}

/** Encrypts, decrypts or re-keys the configured database file in place (see the SQLite adapter's change-cipher). */
export function changeDatabaseKey(input: {
  config: Pick<Config, 'dbPath'>;
  from: string | undefined;
  to: string | undefined;
}): CipherChangeSummary {
  return changeEncryption({ path: input.config.dbPath, from: input.from, to: input.to });
}

export type ExtractorChoice = 'auto' | 'llm' | 'offline';

export interface Extraction {
  extractor: Extractor;
  /** The model in use, or null for the offline extractor. */
  model: ModelSelection | null;
  client: LlmClient | null;
  /** LLM confirmation of ambiguous entity matches, when a model is in use. */
  verifier: MatchVerifier | undefined;
  /** Embeddings for the resolution layer, when PIE_EMBEDDER is set. */
  embedder: Embedder | undefined;
  /** "offline rules" or "openai:gpt-5-mini (from OPENAI_API_KEY)". */
  description: string;
}

/**
 * Picks the extractor (DESIGN.md §6): `--extractor offline` forces the rules; `llm` requires a model (`--llm`,
 * PIE_LLM, or an API key); `auto` uses a model when one is configured, else the offline extractor.
 */
export async function createExtraction(input: {
  services: Services;
  choice: ExtractorChoice;
  llm?: string | undefined;
  onCall?: Parameters<typeof createLlmClient>[0]['onCall'];
}): Promise<Extraction> {
  const { services, choice } = input;
  const model = choice === 'offline' ? null : selectModel({ flag: input.llm, env: services.env });
  if (choice === 'llm' && !model) {
    throw new PieError(
      'LLM_UNAVAILABLE',
      'No model is configured for --extractor llm; pass --llm provider:model, set PIE_LLM, or set OPENAI_API_KEY or ANTHROPIC_API_KEY.',
    );
  }
  const embedder = createEmbedderFromEnv(services.env);
  if (!model) {
    return {
      extractor: createOfflineExtractor(),
      model: null,
      client: null,
      verifier: undefined,
      embedder,
      description: 'offline rules',
    };
  }
  const client = await createClientFor({ services, model, onCall: input.onCall });
  return {
    extractor: createLlmExtractor({ client }),
    model,
    client,
    verifier: createEntityVerifier({ client }),
    embedder,
    description: `${formatModelRef(model.ref)} (from ${model.source})`,
  };
}

/** The cached, accounted client over the selected model (a fake script for `fake:<file>`). */
async function createClientFor(input: {
  services: Services;
  model: ModelSelection;
  onCall?: Parameters<typeof createLlmClient>[0]['onCall'] | undefined;
}): Promise<LlmClient> {
  const { services, model } = input;
  const base: LanguageModel =
    model.ref.provider === 'fake'
      ? createFakeModelFromFile(model.ref.model)
      : createLanguageModel({ ref: model.ref, env: services.env });
  // Secrets and personal data are replaced by placeholders before a prompt leaves the machine (cloud providers by
  // default, PIE_REDACT to choose); below the cache, so cached answers hold the real values, which stay local.
  const languageModel = redactingModel({
    model: base,
    categories: redactionPolicy({ ref: model.ref, env: services.env }),
  });
  return createLlmClient({
    model: languageModel,
    cache: services.store.llmCache,
    clock: services.clock,
    prices: await loadPrices({ env: services.env }),
    ...(input.onCall ? { onCall: input.onCall } : {}),
  });
}

/**
 * The model for answering questions (`--llm`, PIE_LLM, or an API key in the environment), or null when none is
 * configured; `--no-llm` style callers pass `disabled`.
 */
export async function createQueryModel(input: {
  services: Services;
  llm?: string | undefined;
  onCall?: Parameters<typeof createLlmClient>[0]['onCall'];
}): Promise<{ client: LlmClient; description: string } | null> {
  const model = selectModel({ flag: input.llm, env: input.services.env });
  if (!model) return null;
  const client = await createClientFor({ services: input.services, model, onCall: input.onCall });
  return { client, description: `${formatModelRef(model.ref)} (from ${model.source})` };
}

/**
 * The embedder named by PIE_EMBEDDER (`openai:text-embedding-3-small`, `ollama:nomic-embed-text`,
 * `openai-compatible:<url>#<model>`; `fake:` for tests), or none.
 */
export function createEmbedderFromEnv(env: Env): Embedder | undefined {
  const text = env.PIE_EMBEDDER?.trim();
  if (!text) return undefined;
  const ref = parseModelRef(text);
  if (ref.provider === 'fake') return createFakeEmbedder();
  // Texts sent to a cloud embedding model are redacted like prompts (nothing maps back: a vector is all it returns).
  return redactingEmbedder({ embedder: createEmbedder({ ref, env }), categories: redactionPolicy({ ref, env }) });
}
