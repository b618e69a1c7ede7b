import { describe, expect, it } from 'vitest';
import { extractionResultSchema } from '../extract/result.js';
import { NameIndex } from '../resolve/name-index.js';
import { Resolver } from '../resolve/resolver.js';
import type { Mutation } from './apply/mutations.js';
import { planApply } from './apply/plan.js';
import { snapshot, T0 } from './apply/test-kit.js';
import { resolveNames } from './resolve-names.js';

/** Resolves a result's names against a world of people, then plans it: the names, refs and mutations that follow. */
async function apply(input: { known: { id: string; name: string }[]; people: string[] }) {
  const index = new NameIndex();
  for (const k of input.known) index.add({ id: k.id, type: 'person', name: k.name, aliases: [] });
  const result = extractionResultSchema.parse({
    batch: { id: '2024-03-15', date: new Date(T0).toISOString(), episodeIds: ['ep1'] },
    entities: input.people.map((name) => ({ name, type: 'person' })),
  });
  let n = 0;
  const newId = () => `id${++n}`;
  const names = await resolveNames({ result, resolver: new Resolver({ index }), index, newId });
  const known = new Map(input.known.map((k) => [k.id, snapshot({ ...k, type: 'person' })]));
  const mutations: Mutation[] = planApply(
    {
      result,
      refs: names.refs,
      episodeTimes: new Map([['ep1', T0]]),
      episodeTitles: new Map([['ep1', 'Day']]),
      batchTime: T0,
      recordedAt: T0,
      selfRef: { id: 'self', type: 'person', name: 'User', isNew: false, aliases: [] },
      newId,
    },
    { entities: known, relationships: [], periods: new Map() },
  );
  const refs = [...names.refs.entries()].map(([key, r]) => [key, r.id, r.name]);
  return { index, refs, mutations };
}

const of = <K extends Mutation['op']>(m: Mutation[], op: K) => m.filter((x) => x.op === op);

describe('a full name said after the first name alone', () => {
  it('renames the known person: the full name becomes the name, the first name an alias', async () => {
    const { index, refs, mutations } = await apply({
      known: [{ id: 'maya', name: 'Maya' }],
      people: ['Maya', 'Maya Chen'],
    });
    expect(refs).toEqual([
      ['maya', 'maya', 'Maya Chen'],
      ['maya chen', 'maya', 'Maya Chen'],
    ]);
    expect(of(mutations, 'entity.rename')).toEqual([{ op: 'entity.rename', id: 'maya', name: 'Maya Chen' }]);
    expect(of(mutations, 'alias.add')).toEqual([{ op: 'alias.add', entityId: 'maya', alias: 'Maya' }]);
    expect(of(mutations, 'entity.insert')).toEqual([]);
    expect(index.entities.get('maya')).toMatchObject({ name: 'Maya Chen', aliases: ['Maya'] });
  });

  it('in one batch, the first name first: one new person under the full name', async () => {
    const { refs, mutations } = await apply({ known: [], people: ['Maya', 'Maya Chen'] });
    expect(refs).toEqual([
      ['maya', 'id1', 'Maya Chen'],
      ['maya chen', 'id1', 'Maya Chen'],
    ]);
    expect(of(mutations, 'entity.insert').map((m) => m.op === 'entity.insert' && m.entity.name)).toEqual(['Maya Chen']);
    expect(of(mutations, 'entity.rename')).toEqual([]);
    expect(of(mutations, 'alias.add')).toEqual([{ op: 'alias.add', entityId: 'id1', alias: 'Maya' }]);
  });

  it('leaves two people apart when another person has that first name', async () => {
    const { refs, mutations } = await apply({
      known: [
        { id: 'maya', name: 'Maya' },
        { id: 'patel', name: 'Maya Patel' },
      ],
      people: ['Maya Chen'],
    });
    expect(refs).toEqual([['maya chen', 'id1', 'Maya Chen']]);
    expect(of(mutations, 'entity.rename')).toEqual([]);
  });
});
