import type { Migration } from './types.js';

/**
 * Schema 3: pyramid memory (spec/pyramid-memory.md). Observations get the mental model they are assigned to, and
 * summaries become per model: 001's summaries table (never written by any release) was keyed by (tier, start)
 * alone, which cannot hold one summary per model and window, so it is replaced. A summary's `meta` records how it
 * was made (a model or the deterministic selection) and a hash of its sources, so an unchanged window is not
 * summarized again.
 */
const sql = `
ALTER TABLE observations ADD COLUMN model_id TEXT REFERENCES mental_models (id) ON DELETE SET NULL;
CREATE INDEX observations_by_model ON observations (model_id, event_time);

DROP TABLE summaries;
CREATE TABLE summaries (
  id         TEXT PRIMARY KEY,
  model_id   TEXT NOT NULL REFERENCES mental_models (id) ON DELETE CASCADE,
  tier       INTEGER NOT NULL CHECK (tier >= 0),
  start_at   INTEGER NOT NULL,
  end_at     INTEGER NOT NULL,
  text       TEXT NOT NULL,
  source_ids TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  meta       TEXT NOT NULL DEFAULT '{}',
  UNIQUE (model_id, tier, start_at)
);
CREATE INDEX summaries_by_tier ON summaries (tier, start_at);
`;

export const migration003: Migration = { version: 3, name: 'pyramid', sql };
