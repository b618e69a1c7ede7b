import type { PgMigration } from './types.js';

/**
 * Schema 2: what SQLite's triggers do, in PL/pgSQL.
 * - An entity's searchable text: its name (weight A), its aliases in the order added (B) and its state's string and
 *   number values (C), kept in entities.search_text / search_tsv when the entity or its aliases change.
 * - Embeddings follow their owners (an entity, episode or transition deleted takes its vectors along).
 * - Deleting an episode deletes the personal-benchmark questions whose evidence is in it.
 */
const sql = `
CREATE FUNCTION pie_entity_aliases_text(entity TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_agg(alias, ' ' ORDER BY recorded_at, alias), '') FROM entity_aliases WHERE entity_id = entity
$$;

CREATE FUNCTION pie_state_text(state TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg(v #>> '{}', ' '), '')
  FROM jsonb_each(CASE WHEN jsonb_typeof(state::jsonb) = 'object' THEN state::jsonb ELSE '{}'::jsonb END) AS j(k, v)
  WHERE jsonb_typeof(v) IN ('string', 'number')
$$;

CREATE FUNCTION pie_entity_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  aliases TEXT := pie_entity_aliases_text(NEW.id);
  state_text TEXT := pie_state_text(NEW.state);
BEGIN
  NEW.search_text := concat_ws(' ', NEW.name, nullif(aliases, ''), nullif(state_text, ''));
  NEW.search_tsv := setweight(to_tsvector('english', NEW.name), 'A') ||
    setweight(to_tsvector('english', aliases), 'B') ||
    setweight(to_tsvector('english', state_text), 'C');
  RETURN NEW;
END $$;

CREATE TRIGGER entities_search_insert BEFORE INSERT ON entities
  FOR EACH ROW EXECUTE FUNCTION pie_entity_search();
CREATE TRIGGER entities_search_update BEFORE UPDATE OF name, state ON entities
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION pie_entity_search();

CREATE FUNCTION pie_refresh_entity_search(entity TEXT) RETURNS void LANGUAGE sql AS $$
  UPDATE entities e SET
    search_text = concat_ws(' ', e.name, nullif(pie_entity_aliases_text(e.id), ''), nullif(pie_state_text(e.state), '')),
    search_tsv = setweight(to_tsvector('english', e.name), 'A') ||
      setweight(to_tsvector('english', pie_entity_aliases_text(e.id)), 'B') ||
      setweight(to_tsvector('english', pie_state_text(e.state)), 'C')
  WHERE e.id = entity
$$;

CREATE FUNCTION pie_alias_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pie_refresh_entity_search(OLD.entity_id);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM pie_refresh_entity_search(NEW.entity_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER entity_aliases_search AFTER INSERT OR UPDATE OR DELETE ON entity_aliases
  FOR EACH ROW EXECUTE FUNCTION pie_alias_search();

CREATE FUNCTION pie_embeddings_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM embeddings WHERE owner_kind = TG_ARGV[0] AND owner_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER entities_embeddings_delete AFTER DELETE ON entities
  FOR EACH ROW EXECUTE FUNCTION pie_embeddings_follow('entity');
CREATE TRIGGER episodes_embeddings_delete AFTER DELETE ON episodes
  FOR EACH ROW EXECUTE FUNCTION pie_embeddings_follow('episode');
CREATE TRIGGER transitions_embeddings_delete AFTER DELETE ON transitions
  FOR EACH ROW EXECUTE FUNCTION pie_embeddings_follow('transition');

CREATE FUNCTION pie_personal_bench_forget_episode() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM personal_bench_questions
  WHERE id IN (SELECT question_id FROM personal_bench_evidence WHERE episode_id = OLD.id);
  RETURN OLD;
END $$;
CREATE TRIGGER personal_bench_forget_episode BEFORE DELETE ON episodes
  FOR EACH ROW EXECUTE FUNCTION pie_personal_bench_forget_episode();
`;

export const pgMigration002: PgMigration = { version: 2, name: 'triggers', sql };
