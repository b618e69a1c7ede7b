import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Extracting out of date order (black-box QA): five conversations, then everything since June 2025, then the rest
 * (later conversations before earlier ones) must give the people one run in date order gives. The later
 * conversations call Maya Chen "Maya" alone; the earlier one that gives her full name came last, and the full name
 * did not resolve to the person known as "Maya", so the world held two Mayas, the CEO role and the promises on the
 * first name only, and the audit offered to merge "Maya Chen" into "Maya".
 */
let dir: string;
let cleanup: () => void;
let late: string;
let once: string;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  late = join(dir, 'late.db');
  once = join(dir, 'once.db');
  for (const args of [['--limit', '5'], ['--since', '2025-06-01'], []]) {
    const r = await pie(['--db', late, 'ingest', SAMPLE, ...args]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const r = await pie(['--db', once, 'ingest', SAMPLE]);
  if (r.code !== 0) throw new Error(r.stderr);
}, 300_000);
afterAll(() => cleanup());

const people = (db: string) =>
  rows<{ name: string; aliases: string | null }>(
    db,
    `SELECT e.name, (SELECT group_concat(a.alias, '|') FROM entity_aliases a WHERE a.entity_id = e.id) AS aliases
       FROM entities e WHERE e.type = 'person' AND e.merged_into IS NULL ORDER BY e.name`,
  );
const edgesTo = (db: string, type: string) =>
  rows<{ source: string; target: string; properties: string; open: number }>(
    db,
    `SELECT s.name AS source, t.name AS target, r.properties, r.valid_to IS NULL AS open FROM relationships r
       JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id
      WHERE r.type = ? ORDER BY s.name, r.valid_from`,
    type,
  );

describe('extraction out of date order', () => {
  it('makes one Maya Chen, known also as "Maya", with the people of one run in date order', () => {
    expect(people(late)).toEqual(people(once));
    expect(people(late).filter((p) => p.name.startsWith('Maya'))).toEqual([{ name: 'Maya Chen', aliases: 'Maya' }]);
    const maya = rows<{ state: string }>(late, `SELECT state FROM entities WHERE name = 'Maya Chen'`);
    expect(JSON.parse(maya[0]?.state ?? '{}')).toMatchObject({ role: 'CEO' });
  });

  it('gives her the promises and the roles, the older role as closed history', () => {
    for (const db of [late, once]) {
      expect(edgesTo(db, 'PROMISED_TO').map((e) => [e.source, e.target])).toEqual([
        ['finish the pitch deck', 'Maya Chen'],
        ['have the onboarding flow done', 'Maya Chen'],
        ['send Daniel Okafor a pilot report', 'Daniel Okafor'],
      ]);
      expect(
        edgesTo(db, 'WORKS_ON')
          .filter((e) => e.source === 'Maya Chen')
          .map((e) => [JSON.parse(e.properties) as unknown, e.open]),
      ).toEqual([
        [{ role: 'co-founder' }, 0],
        [{ role: 'CEO' }, 1],
      ]);
    }
    expect(rows(late, 'SELECT id FROM relationships WHERE valid_to < valid_from')).toEqual([]);
  });

  it('dates every first mention where date order does (15 had cited a later conversation)', () => {
    const creations = (db: string) =>
      rows<{ name: string; eventTime: number; summary: string; episode: string | null }>(
        db,
        `SELECT e.name, t.event_time AS eventTime, t.summary, ep.title AS episode FROM transitions t
           JOIN entities e ON e.id = t.entity_id LEFT JOIN episodes ep ON ep.id = t.episode_id
          WHERE t.kind = 'creation' AND e.merged_into IS NULL ORDER BY e.name, t.event_time`,
      );
    const inOrder = creations(once);
    expect(inOrder.length).toBeGreaterThan(40);
    expect(creations(late)).toEqual(inOrder);
    const maya = inOrder.find((c) => c.name === 'Maya Chen');
    expect(maya).toMatchObject({ summary: 'First mentioned in “Co-founder agreement basics”' });
    expect(maya?.episode).toBe('Co-founder agreement basics');
  });

  it('links every entity to the period it was first seen in, as date order does (14 had none or a later one)', () => {
    const during = (db: string) =>
      edgesTo(db, 'DURING').map((e) => ({ source: e.source, target: e.target, open: e.open }));
    const inOrder = during(once);
    expect(inOrder.length).toBeGreaterThan(50);
    expect(during(late)).toEqual(inOrder);
    // Nora was first named in junior year; the gap semester is where a later conversation named her again.
    expect(inOrder.filter((e) => e.source === 'Nora')).toEqual([
      { source: 'Nora', target: 'junior year at UMD', open: 1 },
    ]);
    // Each entity has one such link at most.
    const sources = inOrder.map((e) => e.source);
    expect(new Set(sources).size).toBe(sources.length);
  });

  it('records every relationship and its times as date order does (an ending read first kept a second version)', () => {
    const all = (db: string) =>
      rows<{ edge: string }>(
        db,
        `SELECT s.name || ' ' || r.type || ' ' || t.name || ' ' || r.properties || ' ' || r.valid_from || '-' ||
                coalesce(r.valid_to, 'open') AS edge
           FROM relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id`,
      )
        .map((r) => r.edge)
        .sort();
    expect(all(once).length).toBeGreaterThan(100);
    expect(all(late)).toEqual(all(once));
  });

  it('dates the values told late as date order does: a chain of past values, and a creation’s state where it moved', () => {
    const names = ['Maya Chen', 'LangChain', 'PostgreSQL', 'San Francisco', 'Nora', 'gap semester in San Francisco'];
    const facts = (db: string) =>
      rows<{ fact: string }>(
        db,
        // To the second: one conversation's changes are a millisecond apart in the order each run said them.
        `SELECT e.name || ' ' || f.attribute || '=' || f.value || ' ' || (f.valid_from / 1000) || '-' ||
                coalesce(f.valid_to / 1000, 'open') AS fact
           FROM facts f JOIN entities e ON e.id = f.entity_id
          WHERE e.name IN (${names.map(() => '?').join(', ')})`,
        ...names,
      )
        .map((r) => r.fact)
        .sort();
    expect(facts(once).length).toBeGreaterThan(15);
    expect(facts(late)).toEqual(facts(once));
  });

  it('leaves the audit no Maya to merge', async () => {
    const audit = await pieJson<{ findings: { kind: string; why: string }[] }>(['--db', late, 'audit']);
    expect(audit.findings.filter((f) => f.kind === 'duplicate' && f.why.includes('Maya'))).toEqual([]);
  });
});
