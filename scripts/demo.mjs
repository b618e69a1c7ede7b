// `npm run demo`: ingest the bundled sample export into a fresh demo database and show what PIE made of it.
// Runs the built CLI exactly as a user would; no API key, no network (the offline extractor).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pie = fileURLToPath(new URL('../dist/bin/pie.js', import.meta.url));
const dbDir = fileURLToPath(new URL('../.pie-demo/', import.meta.url));
const db = `${dbDir}pie.db`;
mkdirSync(dbDir, { recursive: true });
for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });

// The sample story ends in October 2025; "now" is pinned just after it so relative times read naturally.
const steps = [
  ['ingest', 'sample/chatgpt-export.json'],
  ['stats'],
  ['periods'],
  ['timeline', 'Tidepool'],
  ['entity', 'Tidepool'],
  ['timeline', 'vector search is enough for memory'],
  ['entities', '--type', 'tool', '--limit', '12'],
  ['ask', 'How has my thinking about knowledge graphs evolved?', '--context-only'],
  ['diff', 'junior year', 'SF gap semester', '--limit', '5'],
  ['contradictions'],
  ['sleep'],
  ['procedures'],
  // A benchmark made from this history: questions from the user's own turns, PIE's context against BM25.
  ['bench', 'personal'],
];
for (const args of steps) {
  console.log(`\n$ pie ${args.map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' ')}`);
  const run = spawnSync(process.execPath, [pie, '--db', db, '--tz', 'UTC', '--now', '2025-11-01', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
console.log(
  '\nThe demo database is .pie-demo/pie.db. Explore further:\n' +
    '  npx pie --db .pie-demo/pie.db entity "Maya Chen" | search <words> | ask "<question>" | snapshot --period <name>\n' +
    '  npx pie --db .pie-demo/pie.db undo <run-id>   (puts back what the sleep changed)\n' +
    '  npx pie --db .pie-demo/pie.db bench personal --compare   (after a change: what got better or worse)',
);
