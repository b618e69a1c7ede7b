import type { PgMigration } from './types.js';

/**
 * Schema 6: search text is split at non-ASCII punctuation and symbols, as SQLite's unicode61 tokenizer splits it.
 * PostgreSQL's text-search parser takes every non-ASCII character for a letter in a cluster with the C locale (the
 * one docs/postgres.md sets up), so “Harbour”, ‘Dune’, I’m, work—life or done🎉 were single words that a search
 * for Harbour, Dune, work or done never found. `pie_search_text` turns those characters into spaces before
 * to_tsvector; accented letters (café, naïve) stay letters. The generated search columns are made again with it
 * (PostgreSQL 15 cannot change a generated column's expression in place) and the entities' search text refreshed.
 */
const sql = String.raw`
CREATE FUNCTION pie_search_text(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(t,
    '[\u00A1-\u00A9\u00AB-\u00B4\u00B6-\u00B9\u00BB-\u00BF\u00D7\u00F7\u2000-\u2BFF\u2E00-\u2E7F\u3000-\u303F\uFE00-\uFE0F\uFE30-\uFE4F\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65\U0001F000-\U0001FAFF]',
    ' ', 'g')
$$;

DROP INDEX episodes_search;
ALTER TABLE episodes DROP COLUMN search_tsv;
ALTER TABLE episodes ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', pie_search_text(title)), 'A') ||
  setweight(to_tsvector('english', pie_search_text(coalesce(summary, ''))), 'B')) STORED;
CREATE INDEX episodes_search ON episodes USING gin (search_tsv);

DROP INDEX turns_search;
ALTER TABLE turns DROP COLUMN search_tsv;
ALTER TABLE turns ADD COLUMN search_tsv tsvector
  GENERATED ALWAYS AS (to_tsvector('english', pie_search_text(text))) STORED;
CREATE INDEX turns_search ON turns USING gin (search_tsv);

DROP INDEX transitions_search;
ALTER TABLE transitions DROP COLUMN search_tsv;
ALTER TABLE transitions ADD COLUMN search_tsv tsvector
  GENERATED ALWAYS AS (to_tsvector('english', pie_search_text(summary))) STORED;
CREATE INDEX transitions_search ON transitions USING gin (search_tsv);

CREATE FUNCTION pie_entity_tsv(name TEXT, aliases TEXT, state_text TEXT) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', pie_search_text(name)), 'A') ||
    setweight(to_tsvector('english', pie_search_text(aliases)), 'B') ||
    setweight(to_tsvector('english', pie_search_text(state_text)), 'C')
$$;

CREATE OR REPLACE FUNCTION pie_entity_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  aliases TEXT := pie_entity_aliases_text(NEW.id);
  state_text TEXT := pie_state_text(NEW.state);
BEGIN
  NEW.search_text := concat_ws(' ', NEW.name, nullif(aliases, ''), nullif(state_text, ''));
  NEW.search_tsv := pie_entity_tsv(NEW.name, aliases, state_text);
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION pie_refresh_entity_search(entity TEXT) RETURNS void LANGUAGE sql AS $$
  UPDATE entities e SET
    search_text = concat_ws(' ', e.name, nullif(pie_entity_aliases_text(e.id), ''), nullif(pie_state_text(e.state), '')),
    search_tsv = pie_entity_tsv(e.name, pie_entity_aliases_text(e.id), pie_state_text(e.state))
  WHERE e.id = entity
$$;

UPDATE entities e SET search_tsv = pie_entity_tsv(e.name, pie_entity_aliases_text(e.id), pie_state_text(e.state));
`;

export const pgMigration006: PgMigration = { version: 6, name: 'search punctuation', sql };
