import { benchCipher } from './cipher.js';
import { benchConcurrency } from './concurrency.js';
import { benchDryRun } from './dry-run.js';
import { benchImport } from './import.js';
import { benchKip } from './kip.js';
import { benchQuery } from './query.js';
import { benchRedaction } from './redaction.js';
import { writeHeader } from './report.js';
import { benchSleep } from './sleep.js';
import { benchStartup } from './startup.js';
import { benchWeb } from './web.js';
import { benchImportPostgres } from './pg/import.js';
import { benchQueryPostgres } from './pg/query.js';
import { benchSleepPostgres } from './pg/sleep.js';
import { storeArgs } from './pg/server.js';

/** `npm run bench -- <name>`: runs one benchmark; each writes its own section of docs/benchmarks.md. */
const BENCHES: Record<string, () => Promise<void>> = {
  import: benchImport,
  'dry-run': benchDryRun,
  concurrency: benchConcurrency,
  kip: benchKip,
  query: benchQuery,
  sleep: benchSleep,
  redaction: benchRedaction,
  cipher: benchCipher,
  web: benchWeb,
  startup: benchStartup,
};

/** `--store postgres`: the same benchmark on SQLite and on PostgreSQL in one run, reported side by side. */
const ON_POSTGRES: Record<string, (input: { pgUrl: string | undefined; args: string[] }) => Promise<void>> = {
  import: benchImportPostgres,
  query: benchQueryPostgres,
  sleep: benchSleepPostgres,
};

const name = process.argv[2];
const { postgres, pgUrl, rest } = storeArgs(process.argv.slice(3));
// The SQLite benchmarks read their own flags from process.argv: leave them what is theirs.
process.argv.splice(3, Infinity, ...rest);
const bench = name ? (postgres ? ON_POSTGRES[name] : BENCHES[name]) : undefined;
if (!bench) {
  console.error(
    `usage: npm run bench -- <${Object.keys(BENCHES).join('|')}>, or <${Object.keys(ON_POSTGRES).join('|')}> --store postgres [--pg-url URL]`,
  );
  process.exitCode = 2;
} else {
  await bench({ pgUrl, args: rest });
  writeHeader();
}
