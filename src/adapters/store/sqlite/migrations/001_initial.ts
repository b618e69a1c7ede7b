import type { Migration } from './types.js';

/**
 * Full-text tokenizer for every FTS5 table: unicode61 with diacritics folded (café = cafe), wrapped by the Porter
 * stemmer so that "running" finds "run". Porter only rewrites English-looking ASCII words; other scripts pass
 * through unicode61 unchanged. The benchmarks (LoCoMo, LongMemEval) and most chat histories are English, where
 * stemming raises BM25 recall; a later migration can rebuild the indexes with another tokenizer.
 */
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * The initial schema: room for the whole world model of DESIGN.md §2. Times are INTEGER epoch milliseconds; JSON
 * values are TEXT. Tables that later code fills in (observations, summaries, insights, embeddings …) exist already
 * so that those features need no migration of their own.
 *
 * Two tables carry an INTEGER PRIMARY KEY beside their natural key: `turns.id` and `episodes.rid`. They are the
 * rowids of the external-content FTS indexes, and only an INTEGER PRIMARY KEY is guaranteed to survive VACUUM
 * (implicit rowids may be renumbered). The natural keys stay NOT NULL UNIQUE: episodes.id, turns(episode_id, seq).
 */
const sql = `
CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  applied_at INTEGER NOT NULL
);

-- ------------------------------------------------------------------ episodes and turns
CREATE TABLE episodes (
  rid           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  source        TEXT NOT NULL,
  external_id   TEXT NOT NULL,
  title         TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  model         TEXT,
  content_hash  TEXT NOT NULL,
  turn_count    INTEGER NOT NULL DEFAULT 0,
  summary       TEXT,
  significance  REAL,
  user_state    TEXT,
  extraction    TEXT NOT NULL DEFAULT 'pending' CHECK (extraction IN ('pending', 'extracted', 'failed')),
  extraction_at INTEGER,
  recorded_at   INTEGER NOT NULL,
  meta          TEXT NOT NULL DEFAULT '{}',
  UNIQUE (source, external_id)
);
CREATE INDEX episodes_by_time ON episodes (created_at, id);
CREATE INDEX episodes_by_extraction ON episodes (extraction, created_at, id);

CREATE TABLE turns (
  id          INTEGER PRIMARY KEY,
  episode_id  TEXT NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  role        TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  text        TEXT NOT NULL,
  time        INTEGER,
  speaker     TEXT,
  external_id TEXT,
  attachments TEXT,
  meta        TEXT NOT NULL DEFAULT '{}',
  UNIQUE (episode_id, seq)
);

-- ------------------------------------------------------------------ entities
CREATE TABLE entities (
  id           TEXT PRIMARY KEY,
  type         TEXT NOT NULL,
  name         TEXT NOT NULL,
  name_norm    TEXT NOT NULL,
  state        TEXT NOT NULL DEFAULT '{}',
  first_seen   INTEGER NOT NULL,
  last_seen    INTEGER NOT NULL,
  importance   REAL NOT NULL DEFAULT 0.5,
  tier         TEXT NOT NULL DEFAULT 'active' CHECK (tier IN ('active', 'summarized', 'archived')),
  access_count INTEGER NOT NULL DEFAULT 0,
  created_from TEXT REFERENCES episodes (id) ON DELETE SET NULL,
  recorded_at  INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  version      INTEGER NOT NULL DEFAULT 1,
  protected    INTEGER NOT NULL DEFAULT 0,
  merged_into  TEXT REFERENCES entities (id) ON DELETE SET NULL,
  meta         TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX entities_by_type ON entities (type, importance DESC);
CREATE INDEX entities_by_name ON entities (name_norm);
CREATE INDEX entities_by_tier ON entities (tier, importance DESC);
CREATE INDEX entities_by_last_seen ON entities (last_seen DESC);

CREATE TABLE entity_aliases (
  entity_id   TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  alias       TEXT NOT NULL,
  normalized  TEXT NOT NULL,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (entity_id, normalized)
);
CREATE INDEX entity_aliases_by_normalized ON entity_aliases (normalized);

-- ------------------------------------------------------------------ history: transitions and facts
CREATE TABLE transitions (
  id          TEXT PRIMARY KEY,
  entity_id   TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL,
  from_state  TEXT,
  to_state    TEXT NOT NULL,
  summary     TEXT NOT NULL,
  event_time  INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL,
  confidence  REAL NOT NULL,
  episode_id  TEXT REFERENCES episodes (id) ON DELETE SET NULL,
  batch_id    TEXT,
  resolved_by TEXT
);
CREATE INDEX transitions_by_entity ON transitions (entity_id, event_time);
CREATE INDEX transitions_by_time ON transitions (event_time);
CREATE INDEX transitions_by_kind ON transitions (kind, event_time);
CREATE INDEX transitions_by_episode ON transitions (episode_id);

CREATE TABLE facts (
  id            TEXT PRIMARY KEY,
  entity_id     TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  attribute     TEXT NOT NULL,
  value         TEXT NOT NULL,
  valid_from    INTEGER NOT NULL,
  valid_to      INTEGER,
  superseded_by TEXT,
  episode_id    TEXT REFERENCES episodes (id) ON DELETE SET NULL,
  recorded_at   INTEGER NOT NULL,
  confidence    REAL NOT NULL
);
CREATE INDEX facts_by_entity ON facts (entity_id, attribute, valid_to);
CREATE INDEX facts_by_valid_from ON facts (valid_from);

-- ------------------------------------------------------------------ graph
CREATE TABLE relationships (
  id            TEXT PRIMARY KEY,
  type          TEXT NOT NULL,
  source_id     TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  target_id     TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  properties    TEXT NOT NULL DEFAULT '{}',
  valid_from    INTEGER NOT NULL,
  valid_to      INTEGER,
  confidence    REAL NOT NULL,
  episode_id    TEXT REFERENCES episodes (id) ON DELETE SET NULL,
  recorded_at   INTEGER NOT NULL,
  discovered_by TEXT
);
CREATE INDEX relationships_by_source ON relationships (source_id, type, valid_to);
CREATE INDEX relationships_by_target ON relationships (target_id, type, valid_to);

CREATE TABLE entity_mentions (
  entity_id  TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
  episode_id TEXT NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  time       INTEGER NOT NULL,
  PRIMARY KEY (entity_id, episode_id)
);
CREATE INDEX entity_mentions_by_episode ON entity_mentions (episode_id);
CREATE INDEX entity_mentions_by_time ON entity_mentions (entity_id, time);

CREATE TABLE periods (
  entity_id TEXT PRIMARY KEY REFERENCES entities (id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  start_at  INTEGER NOT NULL,
  end_at    INTEGER
);
CREATE INDEX periods_by_start ON periods (start_at);

CREATE TABLE episode_periods (
  episode_id TEXT NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  period_id  TEXT NOT NULL REFERENCES periods (entity_id) ON DELETE CASCADE,
  PRIMARY KEY (episode_id, period_id)
);
CREATE INDEX episode_periods_by_period ON episode_periods (period_id);

CREATE TABLE procedures (
  id             TEXT PRIMARY KEY,
  description    TEXT NOT NULL,
  pattern        TEXT NOT NULL DEFAULT '[]',
  evidence       TEXT NOT NULL DEFAULT '[]',
  times_observed INTEGER NOT NULL,
  first_observed INTEGER NOT NULL,
  last_observed  INTEGER NOT NULL,
  domain         TEXT,
  confidence     REAL NOT NULL
);
CREATE INDEX procedures_by_domain ON procedures (domain);

-- ------------------------------------------------------------------ pyramid memory and dreaming (filled in later)
CREATE TABLE observations (
  id          TEXT PRIMARY KEY,
  text        TEXT NOT NULL,
  importance  REAL NOT NULL DEFAULT 0.5,
  entity_id   TEXT REFERENCES entities (id) ON DELETE SET NULL,
  episode_id  TEXT REFERENCES episodes (id) ON DELETE SET NULL,
  event_time  INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL,
  meta        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX observations_by_time ON observations (event_time);

CREATE TABLE mental_models (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  content    TEXT NOT NULL,
  version    INTEGER NOT NULL DEFAULT 1,
  updated_at INTEGER NOT NULL,
  meta       TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE summaries (
  id         TEXT PRIMARY KEY,
  tier       INTEGER NOT NULL,
  start_at   INTEGER NOT NULL,
  end_at     INTEGER NOT NULL,
  text       TEXT NOT NULL,
  source_ids TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  UNIQUE (tier, start_at)
);

CREATE TABLE insights (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  text       TEXT NOT NULL,
  evidence   TEXT NOT NULL DEFAULT '[]',
  confidence REAL NOT NULL,
  status     TEXT NOT NULL DEFAULT 'new',
  run_id     TEXT,
  created_at INTEGER NOT NULL
);

CREATE TABLE embeddings (
  owner_kind TEXT NOT NULL,
  owner_id   TEXT NOT NULL,
  model      TEXT NOT NULL,
  dims       INTEGER NOT NULL,
  vector     BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (owner_kind, owner_id, model)
);

-- ------------------------------------------------------------------ ingestion bookkeeping and maintenance
CREATE TABLE ingest_runs (
  id          TEXT PRIMARY KEY,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER,
  status      TEXT NOT NULL,
  source      TEXT NOT NULL,
  options     TEXT NOT NULL DEFAULT '{}',
  counters    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX ingest_runs_by_start ON ingest_runs (started_at);

CREATE TABLE ingest_batches (
  ord         INTEGER PRIMARY KEY,
  run_id      TEXT NOT NULL REFERENCES ingest_runs (id) ON DELETE CASCADE,
  key         TEXT NOT NULL,
  status      TEXT NOT NULL,
  episode_ids TEXT NOT NULL DEFAULT '[]',
  tokens_in   INTEGER NOT NULL DEFAULT 0,
  tokens_out  INTEGER NOT NULL DEFAULT 0,
  cost_usd    REAL NOT NULL DEFAULT 0,
  error       TEXT,
  started_at  INTEGER,
  finished_at INTEGER,
  UNIQUE (run_id, key)
);

CREATE TABLE llm_cache (
  key        TEXT PRIMARY KEY,
  model      TEXT NOT NULL,
  prompt     TEXT NOT NULL,
  response   TEXT NOT NULL,
  tokens_in  INTEGER NOT NULL,
  tokens_out INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE journal (
  run_id     TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  table_name TEXT NOT NULL,
  row_id     TEXT NOT NULL,
  op         TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
  before     TEXT,
  after      TEXT,
  at         INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE maintenance_log (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER,
  status      TEXT NOT NULL,
  report      TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX maintenance_log_by_start ON maintenance_log (started_at);

-- ------------------------------------------------------------------ full-text search (external content, kept in sync by triggers)
CREATE VIRTUAL TABLE turns_fts USING fts5 (
  text, content = 'turns', content_rowid = 'id', tokenize = '${FTS_TOKENIZER}'
);
CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
  INSERT INTO turns_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
  INSERT INTO turns_fts (turns_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER turns_fts_update AFTER UPDATE OF text ON turns BEGIN
  INSERT INTO turns_fts (turns_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO turns_fts (rowid, text) VALUES (new.id, new.text);
END;

CREATE VIRTUAL TABLE episodes_fts USING fts5 (
  title, summary, content = 'episodes', content_rowid = 'rid', tokenize = '${FTS_TOKENIZER}'
);
-- Titles weigh twice as much as summaries in episode ranking (ORDER BY rank uses this).
INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('rank', 'bm25(2.0, 1.0)');
CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
  INSERT INTO episodes_fts (rowid, title, summary) VALUES (new.rid, new.title, new.summary);
END;
CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
  INSERT INTO episodes_fts (episodes_fts, rowid, title, summary) VALUES ('delete', old.rid, old.title, old.summary);
END;
CREATE TRIGGER episodes_fts_update AFTER UPDATE OF title, summary ON episodes BEGIN
  INSERT INTO episodes_fts (episodes_fts, rowid, title, summary) VALUES ('delete', old.rid, old.title, old.summary);
  INSERT INTO episodes_fts (rowid, title, summary) VALUES (new.rid, new.title, new.summary);
END;
`;

export const migration001: Migration = { version: 1, name: 'initial', sql };
