import { describe, expect, it } from 'vitest';
import { mapColumns, portableChecksums } from '../../src/backup/portable.js';
import type { CellValue, DumpStore } from '../../src/ports/dump-store.js';

describe('mapColumns: a backup table onto the target adapter', () => {
  const cases: { name: string; columns: string[]; target: string[]; targets: (string | null)[]; missing: string[] }[] =
    [
      { name: 'same columns', columns: ['id', 'x'], target: ['id', 'x'], targets: ['id', 'x'], missing: [] },
      {
        name: 'SQLite rowid to PostgreSQL ord',
        columns: ['rowid', 'id'],
        target: ['ord', 'id'],
        targets: ['ord', 'id'],
        missing: [],
      },
      {
        name: 'PostgreSQL ord to SQLite rowid',
        columns: ['ord', 'id'],
        target: ['rowid', 'id'],
        targets: ['rowid', 'id'],
        missing: [],
      },
      {
        name: 'rowid where PostgreSQL keeps no order key',
        columns: ['rowid', 'id'],
        target: ['id'],
        targets: [null, 'id'],
        missing: [],
      },
      {
        name: 'a data column the target lacks',
        columns: ['id', 'extra'],
        target: ['id'],
        targets: ['id', null],
        missing: ['extra'],
      },
    ];
  it.each(cases)('$name', ({ columns, target, targets, missing }) => {
    expect(mapColumns({ columns, target })).toEqual({ targets, missing });
  });
});

function fakeDump(tables: Record<string, { columns: string[]; rows: CellValue[][] }>): DumpStore {
  return {
    tables: () => Promise.resolve(Object.entries(tables).map(([name, t]) => ({ name, columns: t.columns }))),
    page: ({ table, after, limit }) => {
      const rows = tables[table]?.rows ?? [];
      const start = after ?? 0;
      const slice = rows.slice(start, start + limit);
      return Promise.resolve({ rows: slice, next: start + slice.length < rows.length ? start + slice.length : null });
    },
    count: (table) => Promise.resolve(tables[table]?.rows.length ?? 0),
    clear: () => Promise.reject(new Error('not used')),
    insert: () => Promise.reject(new Error('not used')),
  };
}

describe('portableChecksums', () => {
  const rows: CellValue[][] = [
    [1, 'a', 0.5, new Uint8Array([1, 2])],
    [2, 'b', null, null],
    [3, 'c', 1, null],
  ];
  const sqlite = fakeDump({ t: { columns: ['rowid', 'id', 'x', 'bytes'], rows } });

  it('ignores the order key, the column order and the row order', async () => {
    const pg = fakeDump({
      t: {
        columns: ['bytes', 'x', 'id'],
        rows: [rows[2], rows[0], rows[1]].map((r) => [r?.[3] ?? null, r?.[2] ?? null, r?.[1] ?? null]),
      },
    });
    const a = await portableChecksums({ dump: sqlite, pageRows: 2 });
    expect(a.t?.rows).toBe(3);
    expect(await portableChecksums({ dump: pg, pageRows: 1 })).toEqual(a);
  });

  it('changes with a changed value, a lost row or a duplicated row', async () => {
    const base = (await portableChecksums({ dump: sqlite })).t?.checksum;
    const changed = fakeDump({
      t: { columns: ['rowid', 'id', 'x', 'bytes'], rows: [rows[0]!, rows[1]!, [3, 'c', 2, null]] },
    });
    const lost = fakeDump({ t: { columns: ['rowid', 'id', 'x', 'bytes'], rows: rows.slice(0, 2) } });
    const doubled = fakeDump({ t: { columns: ['rowid', 'id', 'x', 'bytes'], rows: [...rows, rows[1]!] } });
    for (const dump of [changed, lost, doubled]) {
      expect((await portableChecksums({ dump })).t?.checksum).not.toBe(base);
    }
  });
});
