import { describe, expect, it } from 'vitest';
import type { PersonalQuestion, PersonalQuestionSet } from '../../../src/ports/personal-bench-store.js';
import { addEpisode, T0, turn, useFreshStore, type StoreFactory } from './fixtures.js';

function question(id: string, episodeId: string, extra: Partial<PersonalQuestion> = {}): PersonalQuestion {
  return {
    id,
    kind: 'temporal',
    question: `When did I do ${id}?`,
    answer: '15 March 2024',
    evidence: [{ episodeId, seq: 0, textHash: 'h0' }],
    createdAt: T0,
    generator: 'templates',
    ...extra,
  };
}

function set(id: string, questions: PersonalQuestion[]): PersonalQuestionSet {
  return { id, generator: 'templates', createdAt: T0, meta: { turnsRead: 2 }, questions };
}

export function describePersonalBench(factory: StoreFactory): void {
  describe('personal benchmark', () => {
    const store = useFreshStore(factory);

    it('keeps one question set with its questions in order and their evidence turns', async () => {
      const s = store();
      expect(await s.personalBench.currentSet()).toBeNull();
      const e1 = await addEpisode(s, { externalId: 'c1', turns: [turn('user', 'a'), turn('user', 'b')] });
      const qs = [
        question('q2', e1, { evidence: [{ episodeId: e1, seq: 1, textHash: 'h1' }] }),
        question('q1', e1, {
          kind: 'multi-session',
          evidence: [
            { episodeId: e1, seq: 0, textHash: 'h0' },
            { episodeId: e1, seq: 1, textHash: 'h1' },
          ],
        }),
        question('q3', e1, { kind: 'abstention', evidence: [] }),
      ];
      expect(await s.personalBench.replaceSet(set('s1', qs))).toBeNull();
      const got = await s.personalBench.currentSet();
      expect(got).toEqual(set('s1', qs));
    });

    it('replacing the set says what it replaced, deletes its questions and keeps its runs', async () => {
      const s = store();
      const e1 = await addEpisode(s, { externalId: 'c1' });
      await s.personalBench.replaceSet(set('s1', [question('q1', e1), question('q2', e1)]));
      await s.personalBench.addRun({ id: 'r1', setId: 's1', ranAt: T0, figures: { all: 0.5 } });
      const replaced = await s.personalBench.replaceSet(set('s2', [question('q1', e1)]));
      expect(replaced).toEqual({ id: 's1', generator: 'templates', createdAt: T0, questions: 2, runs: 1 });
      expect((await s.personalBench.currentSet())?.questions.map((q) => q.id)).toEqual(['q1']);
      expect(await s.personalBench.runs({ setId: 's1', limit: 5 })).toEqual([
        { id: 'r1', setId: 's1', ranAt: T0, figures: { all: 0.5 } },
      ]);
    });

    it('lists the runs of a set latest first, at most the limit', async () => {
      const s = store();
      await addEpisode(s, { externalId: 'c1' });
      await s.personalBench.replaceSet(set('s1', []));
      for (const id of ['r1', 'r2', 'r3']) {
        await s.personalBench.addRun({ id, setId: 's1', ranAt: T0, figures: { id } });
      }
      await s.personalBench.addRun({ id: 'other', setId: 's0', ranAt: T0 + 1, figures: {} });
      expect((await s.personalBench.runs({ setId: 's1', limit: 2 })).map((r) => r.id)).toEqual(['r3', 'r2']);
      expect(await s.personalBench.runs({ setId: 'nope', limit: 2 })).toEqual([]);
    });
  });
}
