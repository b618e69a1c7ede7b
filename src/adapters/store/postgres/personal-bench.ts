import type {
  PersonalBenchRepo,
  PersonalKind,
  PersonalQuestion,
  PersonalQuestionSet,
  PersonalRun,
  PersonalSetSummary,
} from '../../../ports/personal-bench-store.js';
import { fromJson, toJson, type Sql } from './sql.js';
import { type EvidenceRow, type QuestionRow, type RunRow, type SetRow } from '../sqlite/personal-bench.js';

/** The personal benchmark's set and runs on PostgreSQL (runs listed in the order added: the identity `rid`). */
export function createPersonalBenchRepo(sql: Sql): PersonalBenchRepo {
  const summary = async (tx: Sql, row: SetRow): Promise<PersonalSetSummary> => {
    const counts = await tx.one<{ questions: number; runs: number }>(
      `SELECT (SELECT count(*) FROM personal_bench_questions WHERE set_id = @id) AS questions,
              (SELECT count(*) FROM personal_bench_runs WHERE set_id = @id) AS runs`,
      { id: row.id },
    );
    return {
      id: row.id,
      generator: row.generator,
      createdAt: row.created_at,
      questions: Number(counts?.questions ?? 0),
      runs: Number(counts?.runs ?? 0),
    };
  };

  return {
    async currentSet() {
      const row = await sql.one<SetRow>(
        'SELECT id, generator, created_at, meta FROM personal_bench_sets ORDER BY created_at DESC, id LIMIT 1',
      );
      if (!row) return null;
      const evidence = new Map<string, PersonalQuestion['evidence']>();
      const evidenceRows = await sql.all<EvidenceRow>(
        `SELECT e.question_id, e.episode_id, e.seq, e.text_hash FROM personal_bench_evidence e
         JOIN personal_bench_questions q ON q.id = e.question_id WHERE q.set_id = @id
         ORDER BY e.question_id, e.position`,
        { id: row.id },
      );
      for (const e of evidenceRows) {
        const list = evidence.get(e.question_id) ?? [];
        list.push({ episodeId: e.episode_id, seq: e.seq, textHash: e.text_hash });
        evidence.set(e.question_id, list);
      }
      const questionRows = await sql.all<QuestionRow>(
        `SELECT id, kind, question, answer, created_at, generator FROM personal_bench_questions
         WHERE set_id = @id ORDER BY position`,
        { id: row.id },
      );
      return {
        id: row.id,
        generator: row.generator,
        createdAt: row.created_at,
        meta: fromJson<Record<string, unknown>>(row.meta, {}),
        questions: questionRows.map((q): PersonalQuestion => ({
          id: q.id,
          kind: q.kind as PersonalKind,
          question: q.question,
          answer: q.answer,
          evidence: evidence.get(q.id) ?? [],
          createdAt: q.created_at,
          generator: q.generator,
        })),
      };
    },

    replaceSet(set: PersonalQuestionSet) {
      return sql.atomic(async (tx) => {
        // Locks the sets so that two replacements one after the other each see what the other left.
        const old = await tx.all<SetRow>(
          'SELECT id, generator, created_at, meta FROM personal_bench_sets ORDER BY created_at DESC, id FOR UPDATE',
        );
        const first = old[0];
        const replaced = first ? await summary(tx, first) : null;
        await tx.run('DELETE FROM personal_bench_sets');
        await tx.run(
          'INSERT INTO personal_bench_sets (id, generator, created_at, meta) VALUES (@id, @generator, @createdAt, @meta)',
          { id: set.id, generator: set.generator, createdAt: set.createdAt, meta: toJson(set.meta) },
        );
        for (const [position, q] of set.questions.entries()) {
          await tx.run(
            `INSERT INTO personal_bench_questions (id, set_id, position, kind, question, answer, created_at, generator)
             VALUES (@id, @set, @position, @kind, @question, @answer, @created, @generator)`,
            {
              id: q.id,
              set: set.id,
              position,
              kind: q.kind,
              question: q.question,
              answer: q.answer,
              created: q.createdAt,
              generator: q.generator,
            },
          );
          for (const [i, e] of q.evidence.entries()) {
            await tx.run(
              `INSERT INTO personal_bench_evidence (question_id, position, episode_id, seq, text_hash)
               VALUES (@question, @position, @episode, @seq, @hash)`,
              { question: q.id, position: i, episode: e.episodeId, seq: e.seq, hash: e.textHash },
            );
          }
        }
        return replaced;
      });
    },

    async addRun(run: PersonalRun) {
      await sql.run(
        'INSERT INTO personal_bench_runs (id, set_id, ran_at, figures) VALUES (@id, @setId, @ranAt, @figures)',
        { id: run.id, setId: run.setId, ranAt: run.ranAt, figures: toJson(run.figures) },
      );
    },

    async runs({ setId, limit }) {
      const rows = await sql.all<RunRow>(
        'SELECT id, set_id, ran_at, figures FROM personal_bench_runs WHERE set_id = @setId ORDER BY rid DESC LIMIT @limit',
        { setId, limit },
      );
      return rows.map((r) => ({
        id: r.id,
        setId: r.set_id,
        ranAt: r.ran_at,
        figures: fromJson<Record<string, unknown>>(r.figures, {}),
      }));
    },
  };
}
