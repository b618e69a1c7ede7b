import { benchCipher } from './cipher.js';
import { benchConcurrency } from './concurrency.js';
import { benchDryRun } from './dry-run.js';
import { benchImport } from './import.js';
import { benchKip } from './kip.js';
import { benchQuery } from './query.js';
import { benchRedaction } from './redaction.js';
import { writeHeader } from './report.js';
import { benchSleep } from './sleep.js';
import { benchWeb } from './web.js';

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
};

const name = process.argv[2];
const bench = name ? BENCHES[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}>`);
  process.exitCode = 2;
} else {
  await bench();
  writeHeader();
}
