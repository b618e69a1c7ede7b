import { composeMemories, type Services } from '../../compose.js';
import { checkMemoriesUse, memoriesFile, readMemoriesFile } from '../../config/memories.js';
import { errorMessage } from '../../domain/errors.js';
import type { CommandContext } from './context.js';

/** The memories a `--memories` server answers for, each with its token and its own composed services. */
export interface OpenedMemories {
  /** The tokens file, as given. */
  file: string;
  memories: { name: string; token: string; services: Services }[];
  /** Closes every memory's store. */
  close(): Promise<void>;
}

/**
 * `--memories FILE` / PIE_MEMORIES for `pie serve` and `pie mcp --http`: checks where it may be used, reads the
 * tokens file and opens every memory it names through the composition root (at start, so a memory that cannot be
 * opened stops the server before it listens). Null when neither is given: the command serves one memory as before.
 */
export async function openServedMemories(input: {
  ctx: CommandContext;
  /** `--memories`. */
  flag: string | undefined;
  /** The global `--memory` as given (PIE_MEMORY is read from the environment). */
  memoryFlag: string | undefined;
  http: boolean;
  /** The command's single-memory token variable, refused beside the file. */
  tokenEnv: 'PIE_TOKEN' | 'PIE_MCP_TOKEN';
  readOnly: boolean;
}): Promise<OpenedMemories | null> {
  const { ctx } = input;
  const env = ctx.io.env;
  const file = memoriesFile({ flag: input.flag, env: env.PIE_MEMORIES });
  if (file === undefined) return null;
  checkMemoriesUse({
    origin: file.origin,
    http: input.http,
    postgres: ctx.config.dbUrl !== undefined,
    memoryFlag: input.memoryFlag,
    memoryEnv: env.PIE_MEMORY,
    tokenEnv: { name: input.tokenEnv, value: env[input.tokenEnv] },
  });
  const tokens = readMemoriesFile({ path: file.path, origin: file.origin });
  const services = await composeMemories({
    config: ctx.config,
    env,
    readonly: input.readOnly,
    names: tokens.map((t) => t.name),
  });
  const memories = tokens.flatMap((t) => {
    const opened = services.get(t.name);
    return opened ? [{ name: t.name, token: t.token, services: opened }] : [];
  });
  return {
    file: file.path,
    memories,
    close: async () => {
      for (const m of memories) {
        await m.services.close().catch((error: unknown) => {
          ctx.io.stderr(`pie: could not close the memory "${m.name}" cleanly: ${errorMessage(error)}\n`);
        });
      }
    },
  };
}

/** The startup line's description of a server of several memories. */
export function describeMemories(opened: OpenedMemories): string {
  const names = opened.memories.map((m) => m.name).join(', ');
  return `${opened.memories.length} memories (${names}), each request's token from ${opened.file} selects its memory`;
}
