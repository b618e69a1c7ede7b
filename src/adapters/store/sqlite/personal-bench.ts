import type {
  PersonalBenchRepo,
  PersonalKind,
  PersonalQuestion,
  PersonalQuestionSet,
  PersonalRun,
  PersonalSetSummary,
} from '../../../ports/personal-bench-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, toJson, type Statements } from './sql.js';

export interface SetRow {
  id: string;
  generator: string;
  created_at: number;
  meta: string;
}

export interface QuestionRow {
  id: string;
  kind: string;
  question: string;
  answer: string;
  created_at: number;
  generator: string;
}

export interface EvidenceRow {
  question_id: string;
  episode_id: string;
  seq: number;
  text_hash: string;
}

export interface RunRow {
  id: string;
  set_id: string;
  ran_at: number;
  figures: string;
}

export function createPersonalBenchRepo(s: Statements): SyncOf<PersonalBenchRepo> {
  const summary = (row: SetRow): PersonalSetSummary => ({
    id: row.id,
    generator: row.generator,
    createdAt: row.created_at,
    questions: s.pluck('SELECT count(*) FROM personal_bench_questions WHERE set_id = ?').get(row.id) as number,
    runs: s.pluck('SELECT count(*) FROM personal_bench_runs WHERE set_id = ?').get(row.id) as number,
  });
  return {
    currentSet() {
      const row = s.get('SELECT * FROM personal_bench_sets ORDER BY created_at DESC, id LIMIT 1').get() as
        SetRow | undefined;
      if (!row) return null;
      const evidence = new Map<string, PersonalQuestion['evidence']>();
      const evidenceRows = s
        .get(
          `SELECT e.question_id, e.episode_id, e.seq, e.text_hash FROM personal_bench_evidence e
           JOIN personal_bench_questions q ON q.id = e.question_id WHERE q.set_id = ? ORDER BY e.question_id, e.position`,
        )
        .all(row.id) as EvidenceRow[];
      for (const e of evidenceRows) {
        const list = evidence.get(e.question_id) ?? [];
        list.push({ episodeId: e.episode_id, seq: e.seq, textHash: e.text_hash });
        evidence.set(e.question_id, list);
      }
      const questions = (
        s.get('SELECT * FROM personal_bench_questions WHERE set_id = ? ORDER BY position').all(row.id) as QuestionRow[]
      ).map((q): PersonalQuestion => ({
        id: q.id,
        kind: q.kind as PersonalKind,
        question: q.question,
        answer: q.answer,
        evidence: evidence.get(q.id) ?? [],
        createdAt: q.created_at,
        generator: q.generator,
      }));
      return {
        id: row.id,
        generator: row.generator,
        createdAt: row.created_at,
        meta: fromJson<Record<string, unknown>>(row.meta, {}),
        questions,
      };
    },
    replaceSet(set: PersonalQuestionSet) {
      return s.atomic(() => {
        const old = s.get('SELECT * FROM personal_bench_sets').all() as SetRow[];
        const replaced = old.length > 0 ? summary(old[0] as SetRow) : null;
        s.get('DELETE FROM personal_bench_sets').run();
        s.get('INSERT INTO personal_bench_sets (id, generator, created_at, meta) VALUES (?, ?, ?, ?)').run(
          set.id,
          set.generator,
          set.createdAt,
          toJson(set.meta),
        );
        const insertQuestion = s.get(
          `INSERT INTO personal_bench_questions (id, set_id, position, kind, question, answer, created_at, generator)
           VALUES (@id, @set, @position, @kind, @question, @answer, @created, @generator)`,
        );
        const insertEvidence = s.get(
          `INSERT INTO personal_bench_evidence (question_id, position, episode_id, seq, text_hash)
           VALUES (?, ?, ?, ?, ?)`,
        );
        set.questions.forEach((q, position) => {
          insertQuestion.run({
            id: q.id,
            set: set.id,
            position,
            kind: q.kind,
            question: q.question,
            answer: q.answer,
            created: q.createdAt,
            generator: q.generator,
          });
          q.evidence.forEach((e, i) => insertEvidence.run(q.id, i, e.episodeId, e.seq, e.textHash));
        });
        return replaced;
      });
    },
    addRun(run: PersonalRun) {
      s.get('INSERT INTO personal_bench_runs (id, set_id, ran_at, figures) VALUES (?, ?, ?, ?)').run(
        run.id,
        run.setId,
        run.ranAt,
        toJson(run.figures),
      );
    },
    runs({ setId, limit }) {
      const rows = s
        .get('SELECT * FROM personal_bench_runs WHERE set_id = ? ORDER BY rid DESC LIMIT ?')
        .all(setId, limit) as RunRow[];
      return rows.map((r) => ({
        id: r.id,
        setId: r.set_id,
        ranAt: r.ran_at,
        figures: fromJson<Record<string, unknown>>(r.figures, {}),
      }));
    },
  };
}
