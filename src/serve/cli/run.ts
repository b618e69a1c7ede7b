import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { compose, type Services } from '../../compose.js';
import { loadConfig, type GlobalFlags } from '../../config/config.js';
import { errorMessage, isPieError } from '../../domain/errors.js';
import { openToOthers } from '../../config/private-files.js';
import { registerApply } from './commands/apply.js';
import { registerAsk } from './commands/ask.js';
import { registerChat } from './commands/chat.js';
import { registerAudit } from './commands/audit.js';
import { registerBackup } from './commands/backup.js';
import { registerBench } from './commands/bench.js';
import { registerEncrypt } from './commands/encrypt.js';
import { registerExport } from './commands/export.js';
import { registerForget } from './commands/forget.js';
import { registerHistory } from './commands/history.js';
import { registerIngest } from './commands/ingest.js';
import { registerInsights } from './commands/insights.js';
import { registerKip } from './commands/kip.js';
import { registerMcp } from './commands/mcp.js';
import { registerMigrateStore } from './commands/migrate-store.js';
import { registerPyramid } from './commands/pyramid.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerSleep } from './commands/sleep.js';
import { registerStats } from './commands/stats.js';
import { registerWorld } from './commands/world.js';
import { emitter, type CommandContext } from './context.js';
import { EXIT_CODES, EXIT_INTERNAL, EXIT_USAGE } from './exit-codes.js';
import type { CliIo } from './io.js';

export type ActionRunner = (action: (ctx: CommandContext) => Promise<void>) => Promise<void>;

const VERSION = '0.1.0';

/** Runs `pie` with `argv` (user arguments only, without node and script) and returns the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = new Command();
  let servicesOpened: Services | undefined;
  // --json promises one document on stdout: once a command has printed its own (a KIP batch with an error
  // inline), a failure after it is told on stderr only.
  let documentPrinted = false;
  const emitOnce =
    (emit: CommandContext['emit']): CommandContext['emit'] =>
    (output) => {
      documentPrinted = true;
      emit(output);
    };

  const run: ActionRunner = async (action) => {
    const config = loadConfig({ flags: program.opts<GlobalFlags>(), env: io.env });
    const ctx: CommandContext = {
      io,
      config,
      emit: emitOnce(emitter(io, config.json)),
      services: async (options) => {
        if (servicesOpened) return servicesOpened;
        const absent =
          options?.absentIsEmpty === true &&
          config.dbUrl === undefined &&
          config.dbPath !== ':memory:' &&
          !existsSync(config.dbPath);
        const used = absent ? { ...config, dbPath: ':memory:' } : config;
        servicesOpened = await compose({
          config: used,
          env: io.env,
          readonly: (options?.readonly ?? false) && !absent,
          existing: options?.existing ?? false,
        });
        const open = used.dbPath === ':memory:' ? null : openToOthers(used.dbPath);
        if (open !== null) {
          io.stderr(
            `pie: warning: the database ${config.dbPath} can be read by other accounts on this machine (mode ${open}); run chmod 600 ${config.dbPath} ${config.dbPath}-wal ${config.dbPath}-shm to keep your history private.\n`,
          );
        }
        return servicesOpened;
      },
    };
    await action(ctx);
  };

  program
    .name('pie')
    .description('PIE, the Personal Intelligence Engine: a temporal world model of your chat history, on your machine.')
    .version(VERSION, '-V, --version')
    .option('--db <file>', 'database file (default $PIE_DB, else $PIE_HOME/pie.db, PIE_HOME defaulting to ~/.pie)')
    .option(
      '--memory <name>',
      'one of several memories in a PostgreSQL database (its own schema; default $PIE_MEMORY, else the default memory)',
    )
    .option('--now <date>', 'reference "now" for relative time (default $PIE_NOW, else the clock)')
    .option('--tz <zone>', 'IANA time zone for day boundaries (default $PIE_TZ, else the system zone)')
    .option('--json', 'machine output: one JSON document on stdout')
    .showHelpAfterError('(run "pie --help" for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

  registerIngest(program, run);
  registerApply(program, run);
  registerStats(program, run);
  registerAsk(program, run);
  registerChat(program, run);
  registerSearch(program, run);
  registerWorld(program, run);
  registerHistory(program, run);
  registerKip(program, run);
  registerMcp(program, run);
  registerServe(program, run);
  registerSleep(program, run);
  registerForget(program, run);
  registerAudit(program, run);
  registerInsights(program, run);
  registerBench(program, run);
  registerBackup(program, run);
  registerMigrateStore(program, run);
  registerEncrypt(program, run);
  registerExport(program, run);
  registerPyramid(program, run);
  for (const cmd of program.commands) cmd.exitOverride();

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(error, io, program.opts<{ json?: boolean }>().json === true && !documentPrinted);
  } finally {
    if (servicesOpened) await closeQuietly(servicesOpened, io);
  }
}

/**
 * The error on stderr (one sentence) and its exit code; with --json also as the one JSON document on stdout
 * (`{"error": {"code", "message"}}`), so a program reading stdout gets a document that says what went wrong.
 */
function reportError(error: unknown, io: CliIo, json: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (help, version, or a usage error).
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  const asJson = (code: string, message: string): void => {
    if (json) io.stdout(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  };
  if (isPieError(error)) {
    io.stderr(`pie: ${error.message}\n`);
    asJson(error.code, error.message);
    return EXIT_CODES[error.code];
  }
  asJson('INTERNAL', `unexpected error: ${errorMessage(error)}`);
  io.stderr(`pie: unexpected error: ${errorMessage(error)}\n`);
  if (io.env.PIE_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  else io.stderr('pie: set PIE_DEBUG=1 to see the stack trace, and please report it.\n');
  return EXIT_INTERNAL;
}

async function closeQuietly(services: Services, io: CliIo): Promise<void> {
  try {
    await services.close();
  } catch (error) {
    io.stderr(`pie: could not close the database cleanly: ${errorMessage(error)}\n`);
  }
}
