import { FTS_TOKENIZER } from './001_initial.js';
import type { Migration } from './types.js';

/** The text an entity's aliases contribute to its search row: every alias, in the order added. */
const aliasesOf = (entityId: string): string =>
  `(SELECT group_concat(alias, ' ' ORDER BY recorded_at, alias) FROM entity_aliases WHERE entity_id = ${entityId})`;

/** The text an entity's state contributes: its string and number values (keys and booleans carry no meaning). */
const stateText = (state: string): string =>
  `(SELECT group_concat(value, ' ') FROM json_each(${state}) WHERE type IN ('text', 'integer', 'real'))`;

/**
 * Schema 2: full-text search over entities and transitions (DESIGN.md §5, lexical lane), the indexes the
 * time-sliced queries need, and embeddings that follow their owners.
 *
 * - `entities_fts` keeps its own copy of name, aliases and state text (one row per entity, rowid = the entity's
 *   rowid): aliases and state values are derived from other rows and JSON, which an external-content table could
 *   not re-read for its 'delete' step. Triggers on entities and entity_aliases keep it in sync; names weigh most.
 * - `transitions_fts` is an external-content index over transitions.summary (content_rowid = the transition's
 *   rowid), like turns_fts and episodes_fts in 001.
 *
 * entities and transitions have TEXT primary keys, so their rowids are implicit. SQLite's VACUUM (and VACUUM INTO)
 * copy a table that has an index together with its rowids (the index entries refer to them), which covers both
 * tables through their primary-key index; the adapter test suite checks that search still finds the right rows
 * after a VACUUM.
 */
const sql = `
-- ------------------------------------------------------------------ entity search
CREATE VIRTUAL TABLE entities_fts USING fts5 (name, aliases, state, tokenize = '${FTS_TOKENIZER}');
-- Names weigh most, then aliases, then state values (ORDER BY rank uses this).
INSERT INTO entities_fts (entities_fts, rank) VALUES ('rank', 'bm25(4.0, 3.0, 1.0)');

CREATE TRIGGER entities_fts_insert AFTER INSERT ON entities BEGIN
  INSERT INTO entities_fts (rowid, name, aliases, state)
  VALUES (new.rowid, new.name, ${aliasesOf('new.id')}, ${stateText('new.state')});
END;
CREATE TRIGGER entities_fts_delete AFTER DELETE ON entities BEGIN
  DELETE FROM entities_fts WHERE rowid = old.rowid;
END;
-- Entity updates write every column; only a real change of name or state touches the index.
CREATE TRIGGER entities_fts_update AFTER UPDATE OF name, state ON entities
  WHEN old.name IS NOT new.name OR old.state IS NOT new.state
BEGIN
  UPDATE entities_fts SET name = new.name, state = ${stateText('new.state')} WHERE rowid = new.rowid;
END;
CREATE TRIGGER entity_aliases_fts_insert AFTER INSERT ON entity_aliases BEGIN
  UPDATE entities_fts SET aliases = ${aliasesOf('new.entity_id')}
  WHERE rowid = (SELECT rowid FROM entities WHERE id = new.entity_id);
END;
CREATE TRIGGER entity_aliases_fts_delete AFTER DELETE ON entity_aliases BEGIN
  UPDATE entities_fts SET aliases = ${aliasesOf('old.entity_id')}
  WHERE rowid = (SELECT rowid FROM entities WHERE id = old.entity_id);
END;
CREATE TRIGGER entity_aliases_fts_update AFTER UPDATE OF entity_id, alias ON entity_aliases BEGIN
  UPDATE entities_fts SET aliases = ${aliasesOf('old.entity_id')}
  WHERE rowid = (SELECT rowid FROM entities WHERE id = old.entity_id);
  UPDATE entities_fts SET aliases = ${aliasesOf('new.entity_id')}
  WHERE rowid = (SELECT rowid FROM entities WHERE id = new.entity_id);
END;

INSERT INTO entities_fts (rowid, name, aliases, state)
  SELECT e.rowid, e.name, ${aliasesOf('e.id')}, ${stateText('e.state')} FROM entities e;

-- ------------------------------------------------------------------ transition search (external content)
CREATE VIRTUAL TABLE transitions_fts USING fts5 (
  summary, content = 'transitions', content_rowid = 'rowid', tokenize = '${FTS_TOKENIZER}'
);
CREATE TRIGGER transitions_fts_insert AFTER INSERT ON transitions BEGIN
  INSERT INTO transitions_fts (rowid, summary) VALUES (new.rowid, new.summary);
END;
CREATE TRIGGER transitions_fts_delete AFTER DELETE ON transitions BEGIN
  INSERT INTO transitions_fts (transitions_fts, rowid, summary) VALUES ('delete', old.rowid, old.summary);
END;
CREATE TRIGGER transitions_fts_update AFTER UPDATE OF summary ON transitions BEGIN
  INSERT INTO transitions_fts (transitions_fts, rowid, summary) VALUES ('delete', old.rowid, old.summary);
  INSERT INTO transitions_fts (rowid, summary) VALUES (new.rowid, new.summary);
END;
INSERT INTO transitions_fts (transitions_fts) VALUES ('rebuild');

-- ------------------------------------------------------------------ indexes for time-sliced queries
-- Unresolved contradictions (pie contradictions) in list order, without reading every contradiction ever recorded.
-- The constant leading kind column lets the planner see it as a (kind=?) search that beats transitions_by_kind.
CREATE INDEX transitions_unresolved ON transitions (kind, event_time, recorded_at, id)
  WHERE kind = 'contradiction' AND resolved_by IS NULL;
-- Relationships valid at a time / changed in a window.
CREATE INDEX relationships_by_valid_from ON relationships (valid_from, id);
CREATE INDEX relationships_by_valid_to ON relationships (valid_to) WHERE valid_to IS NOT NULL;
-- Entities mentioned in a window (the existing index leads with entity_id).
CREATE INDEX entity_mentions_by_window ON entity_mentions (time, entity_id);

-- ------------------------------------------------------------------ embeddings follow their owners
CREATE TRIGGER entities_embeddings_delete AFTER DELETE ON entities BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'entity' AND owner_id = old.id;
END;
CREATE TRIGGER episodes_embeddings_delete AFTER DELETE ON episodes BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'episode' AND owner_id = old.id;
END;
CREATE TRIGGER transitions_embeddings_delete AFTER DELETE ON transitions BEGIN
  DELETE FROM embeddings WHERE owner_kind = 'transition' AND owner_id = old.id;
END;
`;

export const migration002: Migration = { version: 2, name: 'query_search', sql };
