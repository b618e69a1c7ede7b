import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { changeEncryption, openSqliteStore } from '../src/adapters/store/sqlite/index.js';
import { createTiktokenTokenizer } from '../src/adapters/tokenizer/tiktoken.js';
import { ensureWorld, WORLD_NOW } from './generate/world.js';
import { benchContext, percentile, questionsFor, type Question } from './query.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { BENCH_TMP } from './workspace.js';

const KEY = 'bench key: not a secret';
const OPENS = 7;
const PASSES = 3;

/**
 * `npm run bench -- cipher`: what encryption at rest costs on the 20k-entity world of `bench -- query`. The world is
 * copied twice, one copy encrypted with `changeEncryption`; each is opened (connection, schema check, first stats
 * read) seven times, then every query question of the query bench runs three passes against each, alternating.
 */
export async function benchCipher(): Promise<void> {
  const world = await ensureWorld();
  const plain = join(BENCH_TMP, 'cipher-plain.db');
  const encrypted = join(BENCH_TMP, 'cipher-encrypted.db');
  const removeCopies = () => {
    for (const f of [plain, encrypted]) for (const s of ['', '-wal', '-shm']) rmSync(`${f}${s}`, { force: true });
  };
  removeCopies();
  copyFileSync(world.path, plain);
  copyFileSync(world.path, encrypted);
  console.log('Encrypting a copy of the world…');
  let started = performance.now();
  const converted = changeEncryption({ path: encrypted, from: undefined, to: KEY });
  const convertMs = performance.now() - started;

  const opens: Record<'plain' | 'encrypted', number[]> = { plain: [], encrypted: [] };
  for (let i = 0; i < OPENS; i++) {
    for (const [kind, path, key] of [
      ['plain', plain, undefined],
      ['encrypted', encrypted, KEY],
    ] as const) {
      started = performance.now();
      const store = await openSqliteStore({ path, key });
      await store.stats();
      await store.close();
      opens[kind].push(performance.now() - started);
    }
  }

  const tokenizer = createTiktokenTokenizer();
  const stores = {
    plain: await openSqliteStore({ path: plain }),
    encrypted: await openSqliteStore({ path: encrypted, key: KEY }),
  };
  const times: Record<'plain' | 'encrypted', number[]> = { plain: [], encrypted: [] };
  try {
    const questions: Question[] = await questionsFor(stores.plain);
    console.log(`Querying ${questions.length} questions × ${PASSES} passes on each copy…`);
    for (let pass = 0; pass < PASSES; pass++) {
      for (const question of questions) {
        for (const kind of ['plain', 'encrypted'] as const) {
          started = performance.now();
          await benchContext({
            store: stores[kind],
            question: question.text,
            now: WORLD_NOW,
            tokenizer,
            recordAccess: false,
          });
          if (pass > 0) times[kind].push(performance.now() - started);
        }
      }
    }
  } finally {
    await stores.plain.close();
    await stores.encrypted.close();
  }
  const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const row = (kind: 'plain' | 'encrypted') => [
    kind,
    ms(percentile(opens[kind], 50)),
    ms(percentile(times[kind], 50)),
    ms(percentile(times[kind], 95)),
  ];
  const p95 = (k: 'plain' | 'encrypted') => percentile(times[k], 95);
  const mb = (statSync(plain).size / 1024 / 1024).toFixed(0);
  writeSection({
    name: 'cipher',
    markdown: [
      '## Encryption at rest: opening and querying an encrypted database',
      '',
      `Command: \`npm run bench -- cipher\`. The 20k-entity world of \`bench -- query\` (${mb} MB), copied twice and one copy encrypted (ChaCha20-Poly1305, SQLite3 Multiple Ciphers' default) with \`pie encrypt\`'s conversion, which took ${(convertMs / 1000).toFixed(1)} s for ${converted.rows.toLocaleString('en-US')} rows (copy, re-key, integrity check and row counts). Open: connection, schema check and a first stats read, median of ${OPENS}. Query: every question of the query bench, ${PASSES - 1} timed passes after a warm one, alternating between the copies in one process (page cache warm for both). ${machineLine()}.`,
      '',
      mdTable(['database', 'open ms (median)', 'query p50 ms', 'query p95 ms'], [row('plain'), row('encrypted')]),
      '',
      `Encryption adds ${ms(percentile(opens.encrypted, 50) - percentile(opens.plain, 50))} ms to an open and ${(((p95('encrypted') - p95('plain')) / p95('plain')) * 100).toFixed(0)} % to the query p95.`,
    ].join('\n'),
  });
  removeCopies();
  console.log(mdTable(['database', 'open ms', 'p50', 'p95'], [row('plain'), row('encrypted')]));
}
