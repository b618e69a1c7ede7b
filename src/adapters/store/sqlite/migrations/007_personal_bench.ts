import type { Migration } from './types.js';

/**
 * Schema 7: the personal benchmark (`pie bench personal`). One question set at a time (`personal_bench_sets`), its
 * questions and their evidence turns (episode id + seq, with a hash of the turn's text so a changed turn is noticed),
 * and the figures of every run (JSON, kept when the set is replaced). A question quotes the conversations it comes
 * from, so deleting an episode deletes the questions whose evidence is in it (trigger, before the turns go).
 */
const sql = `
CREATE TABLE personal_bench_sets (
  id          TEXT PRIMARY KEY,
  generator   TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  meta        TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE personal_bench_questions (
  id          TEXT PRIMARY KEY,
  set_id      TEXT NOT NULL REFERENCES personal_bench_sets (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  kind        TEXT NOT NULL
              CHECK (kind IN ('single-fact', 'temporal', 'knowledge-update', 'multi-session', 'abstention')),
  question    TEXT NOT NULL,
  answer      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  generator   TEXT NOT NULL
);
CREATE INDEX personal_bench_questions_by_set ON personal_bench_questions (set_id, position);

CREATE TABLE personal_bench_evidence (
  question_id TEXT NOT NULL REFERENCES personal_bench_questions (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  episode_id  TEXT NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  text_hash   TEXT NOT NULL,
  PRIMARY KEY (question_id, position)
);
CREATE INDEX personal_bench_evidence_by_episode ON personal_bench_evidence (episode_id);

CREATE TRIGGER personal_bench_forget_episode BEFORE DELETE ON episodes BEGIN
  DELETE FROM personal_bench_questions
  WHERE id IN (SELECT question_id FROM personal_bench_evidence WHERE episode_id = OLD.id);
END;

CREATE TABLE personal_bench_runs (
  rid         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  set_id      TEXT NOT NULL,
  ran_at      INTEGER NOT NULL,
  figures     TEXT NOT NULL
);
CREATE INDEX personal_bench_runs_by_set ON personal_bench_runs (set_id, rid);
`;

export const migration007: Migration = { version: 7, name: 'personal_bench', sql };
