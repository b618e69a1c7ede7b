import { databaseKey, type GlobalFlags } from '../../../config/config.js';
import type { Command } from 'commander';
import { createEmbedderFromEnv, createExtraction, createQueryModel, type Services } from '../../../compose.js';
import { SleepPlanCache } from '../../../metabolism/plan-cache.js';
import type { HttpDeps } from '../../http/deps.js';
import { startPlanAhead } from '../../plan-ahead/keep-ready.js';
import { threadPlanner } from '../../plan-ahead/thread.js';
import { defaultWebRoot } from '../../http/static.js';
import type { CommandContext } from '../context.js';
import { parsePort } from '../args.js';
import { openServedMemories, type OpenedMemories } from '../memories.js';
import { accessNote, madeOnce, serveUntilStopped } from '../serving.js';
import type { ActionRunner } from '../run.js';

export const DEFAULT_SERVE_PORT = 8766;

interface ServeFlags {
  port: string;
  host: string;
  readOnly?: boolean;
  planAhead: boolean;
  llm?: string;
  memories?: string;
}

export function registerServe(program: Command, run: ActionRunner): void {
  const version = program.version() ?? '0.0.0';
  program
    .command('serve')
    .description('HTTP API and web UI: search, timelines, graph, diffs, snapshots, chat, sleep (127.0.0.1 by default)')
    .option('--port <n>', 'port (0 picks a free one)', String(DEFAULT_SERVE_PORT))
    .option(
      '--host <address>',
      'address to listen on; anything but loopback requires PIE_TOKEN (or --memories)',
      '127.0.0.1',
    )
    .option(
      '--read-only',
      'no writes: chat statements, sleep (apply) and undo are refused; the database is opened read-only',
    )
    .option(
      '--llm <provider:model>',
      'model for chat answers and extraction (default $PIE_LLM, else an API key; none: the context)',
    )
    .option(
      '--no-plan-ahead',
      'do not keep a full sleep preview planned ahead in a background thread (never done with --memories); previews are then planned on request',
    )
    .option(
      '--memories <file>',
      'serve several memories of a PostgreSQL --db at once: a JSON file {"name": "token", …} (mode 600; default $PIE_MEMORIES); each API request\'s bearer token selects its memory, and PIE_TOKEN and --memory are refused beside it',
    )
    .action((flags: ServeFlags) => run((ctx) => serve(ctx, flags, version, program.opts<GlobalFlags>().memory)));
}

async function serve(
  ctx: CommandContext,
  flags: ServeFlags,
  version: string,
  memoryFlag: string | undefined,
): Promise<void> {
  const port = parsePort(flags.port);
  const readOnly = flags.readOnly ?? false;
  const log = (message: string): void => ctx.io.stderr(`pie serve: ${message}\n`);
  const served = await openServedMemories({
    ctx,
    flag: flags.memories,
    memoryFlag,
    http: true,
    tokenEnv: 'PIE_TOKEN',
    readOnly,
  });
  try {
    await listen({ ctx, flags, version, port, readOnly, log, served });
  } finally {
    await served?.close();
  }
}

async function listen(input: {
  ctx: CommandContext;
  flags: ServeFlags;
  version: string;
  port: number;
  readOnly: boolean;
  log: (message: string) => void;
  served: OpenedMemories | null;
}): Promise<void> {
  const { ctx, flags, version, port, readOnly, log, served } = input;
  const tz = ctx.config.tz;
  const webRoot = defaultWebRoot();
  const token = served ? undefined : ctx.io.env.PIE_TOKEN?.trim() || undefined;
  const single = served
    ? null
    : createHttpDeps({
        services: readOnly ? await ctx.services({ readonly: true }) : await ctx.services({ existing: true }),
        tz,
        readOnly,
        log,
        version,
        llm: flags.llm,
      });
  const target = single
    ? { deps: single, token }
    : {
        memories: (served?.memories ?? []).map((m) => ({
          name: m.name,
          token: m.token,
          deps: createHttpDeps({
            services: m.services,
            tz,
            readOnly,
            log: (message) => ctx.io.stderr(`pie serve [${m.name}]: ${message}\n`),
            version,
            llm: flags.llm,
          }),
        })),
      };
  if (webRoot === null) log('the web UI is not built (npm run build); serving the API only.');

  await serveUntilStopped({
    log,
    serve: async () => {
      // The HTTP server and its routes load only for this command (other commands start without them).
      const { startServer } = await import('../../http/server.js');
      const server = await startServer({ ...target, host: flags.host, port, webRoot });
      // One memory: its full sleep's preview is kept planned in a thread (several memories would plan several).
      const ahead =
        single && flags.planAhead
          ? startPlanAhead({ ...single, plan: threadPlanner({ config: ctx.config, env: ctx.io.env, llm: flags.llm }) })
          : null;
      const access = accessNote({ served, token, tokenEnv: 'PIE_TOKEN', requests: 'every API request' });
      log(`serving ${server.url}${readOnly ? ' (read-only)' : ''}; ${access}. Ctrl-C stops.`);
      return async () => {
        await ahead?.stop();
        await server.close();
      };
    },
  });
}

/** The API's dependencies from the composed services (also what the tests wire). */
export function createHttpDeps(input: {
  services: Services;
  tz: string;
  readOnly: boolean;
  log: (message: string) => void;
  version?: string;
  llm?: string | undefined;
}): HttpDeps {
  const { services, readOnly } = input;
  return {
    store: services.store,
    clock: services.clock,
    tz: input.tz,
    newId: services.newId,
    readOnly,
    embedder: createEmbedderFromEnv(services.env),
    extraction: readOnly ? undefined : madeOnce(() => createExtraction({ services, choice: 'auto', llm: input.llm })),
    queryModel: madeOnce(() => createQueryModel({ services, llm: input.llm })),
    tokenizer: services.tokenizer(),
    backupKey: databaseKey(services.env),
    plans: new SleepPlanCache(),
    log: input.log,
    version: input.version ?? '0.0.0',
  };
}
