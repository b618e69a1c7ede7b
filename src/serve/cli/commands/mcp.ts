import type { Command } from 'commander';
import { createEmbedderFromEnv, createExtraction, type Services } from '../../../compose.js';
import type { GlobalFlags } from '../../../config/config.js';
import { PieError } from '../../../domain/errors.js';
import { DEFAULT_MAX_TOKENS, MIN_MAX_TOKENS } from '../../mcp/budget.js';
import type { EpisodeExtraction, McpDeps } from '../../mcp/deps.js';
import type { ServedMemory } from '../../http/bearer.js';
import { parsePort, parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { openServedMemories, type OpenedMemories } from '../memories.js';
import { accessNote, madeOnce, serveUntilStopped } from '../serving.js';
import type { ActionRunner } from '../run.js';

export const DEFAULT_MCP_PORT = 8765;

interface McpFlags {
  http?: boolean;
  port: string;
  host: string;
  readOnly?: boolean;
  maxTokens: string;
  memories?: string;
}

export function registerMcp(program: Command, run: ActionRunner): void {
  const version = program.version() ?? '0.0.0';
  program
    .command('mcp')
    .description(
      'Model Context Protocol server: the world model as tools for Claude Desktop, Cursor and any MCP client (stdio; --http for Streamable HTTP)',
    )
    .option('--http', `serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio`)
    .option('--port <n>', 'HTTP port (0 picks a free one)', String(DEFAULT_MCP_PORT))
    .option(
      '--host <address>',
      'HTTP address to listen on; anything but loopback requires PIE_MCP_TOKEN (or --memories)',
      '127.0.0.1',
    )
    .option('--read-only', 'no writing tools (ingest_episode); the database is opened read-only')
    .option(
      '--max-tokens <n>',
      'token budget of one response; longer answers are cut with a note',
      String(DEFAULT_MAX_TOKENS),
    )
    .option(
      '--memories <file>',
      'with --http, serve several memories of a PostgreSQL --db at once: a JSON file {"name": "token", …} (mode 600; default $PIE_MEMORIES); the bearer token selects the memory and a session stays with the memory that opened it; PIE_MCP_TOKEN and --memory are refused beside it',
    )
    .action((flags: McpFlags) => run((ctx) => mcp(ctx, flags, version, program.opts<GlobalFlags>().memory)));
}

async function mcp(
  ctx: CommandContext,
  flags: McpFlags,
  version: string,
  memoryFlag: string | undefined,
): Promise<void> {
  const maxTokens = parsePositiveInt(flags.maxTokens, '--max-tokens');
  if (maxTokens < MIN_MAX_TOKENS) {
    throw new PieError('INVALID_ARGUMENT', `--max-tokens must be at least ${MIN_MAX_TOKENS}, not ${maxTokens}.`);
  }
  const port = parsePort(flags.port);
  const readOnly = flags.readOnly ?? false;
  const served = await openServedMemories({
    ctx,
    flag: flags.memories,
    memoryFlag,
    http: flags.http ?? false,
    tokenEnv: 'PIE_MCP_TOKEN',
    readOnly,
  });
  try {
    await listen({ ctx, flags, version, port, readOnly, maxTokens, served });
  } finally {
    await served?.close();
  }
}

async function listen(input: {
  ctx: CommandContext;
  flags: McpFlags;
  version: string;
  port: number;
  readOnly: boolean;
  maxTokens: number;
  served: OpenedMemories | null;
}): Promise<void> {
  const { ctx, flags, version, port, readOnly, maxTokens, served } = input;
  const tz = ctx.config.tz;
  const token = served ? undefined : ctx.io.env.PIE_MCP_TOKEN?.trim() || undefined;
  const log = (message: string): void => ctx.io.stderr(`pie mcp: ${message}\n`);
  const target: { memories: ServedMemory<McpDeps>[] } | { deps: McpDeps; token: string | undefined } = served
    ? {
        memories: served.memories.map((m) => ({
          name: m.name,
          token: m.token,
          deps: createMcpDeps({
            services: m.services,
            tz,
            readOnly,
            maxTokens,
            log: (message) => ctx.io.stderr(`pie mcp [${m.name}]: ${message}\n`),
            version,
          }),
        })),
      }
    : {
        deps: createMcpDeps({
          services: await ctx.services({ readonly: readOnly }),
          tz,
          readOnly,
          maxTokens,
          log,
          version,
        }),
        token,
      };

  await serveUntilStopped({
    log,
    serve: async (signal) => {
      if (!flags.http && 'deps' in target) {
        // The MCP SDK loads only for this command (other commands start without it).
        const { serveStdio } = await import('../../mcp/stdio.js');
        await serveStdio({ deps: target.deps, signal });
        return null;
      }
      const { startHttpServer } = await import('../../mcp/http.js');
      const server = await startHttpServer({ ...target, host: flags.host, port });
      const access = accessNote({ served, token, tokenEnv: 'PIE_MCP_TOKEN', requests: 'every request' });
      log(`serving ${server.url}${readOnly ? ' (read-only)' : ''}; ${access}. Ctrl-C stops.`);
      return () => server.close();
    },
  });
}

/** The server's dependencies from the composed services (also what the tests wire). */
export function createMcpDeps(input: {
  services: Services;
  tz: string;
  readOnly: boolean;
  maxTokens?: number;
  log: (message: string) => void;
  version?: string;
  leaseWaitMs?: number;
}): McpDeps {
  const { services, readOnly } = input;
  return {
    store: services.store,
    clock: services.clock,
    tz: input.tz,
    newId: services.newId,
    readOnly,
    maxTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS,
    countTokens: (text) => services.tokenizer().count(text),
    embedder: createEmbedderFromEnv(services.env),
    extraction: readOnly ? undefined : lazyExtraction(services),
    leaseWaitMs: input.leaseWaitMs,
    log: input.log,
    version: input.version ?? '0.0.0',
  };
}

/** The extraction `pie ingest --extractor auto` would use, built on the first ingest_episode call. */
function lazyExtraction(services: Services): () => Promise<EpisodeExtraction> {
  return madeOnce(() => createExtraction({ services, choice: 'auto' }));
}
