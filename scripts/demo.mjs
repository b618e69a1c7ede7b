// `npm run demo`: ingest the bundled sample export into a fresh demo database and show what PIE made of it.
// Runs the built CLI exactly as a user would; no API key, no network.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pie = fileURLToPath(new URL('../dist/bin/pie.js', import.meta.url));
const dbDir = fileURLToPath(new URL('../.pie-demo/', import.meta.url));
const db = `${dbDir}pie.db`;
mkdirSync(dbDir, { recursive: true });
for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });

const steps = [['ingest', 'sample/chatgpt-export.json'], ['stats'], ['search', 'supabase']];
for (const args of steps) {
  console.log(`\n$ pie --db .pie-demo/pie.db ${args.join(' ')}`);
  const run = spawnSync(process.execPath, [pie, '--db', db, '--tz', 'UTC', ...args], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
console.log('\nExplore further with: npx pie --db .pie-demo/pie.db search <words>');
