import { describe, expect, it } from 'vitest';
import type { Sentence } from '../findings.js';
import { coSpeakerEdges } from './speakers.js';

const said = (episodeId: string, self: string, index = 0): Sentence => ({
  episodeId,
  turn: index,
  index,
  text: 'Hi!',
  time: Date.UTC(2023, 4, 1),
  self,
});

const edges = (sentences: Sentence[]) =>
  coSpeakerEdges({ sentences, anonymousSelf: 'User' }).map((r) => `${r.episodeId}: ${r.source} ${r.type} ${r.target}`);

describe('people who talk with each other know each other', () => {
  it('gives one KNOWS edge per pair of named speakers, in name order whoever spoke first', () => {
    expect(
      edges([said('s1', 'Melanie', 0), said('s1', 'Caroline', 1), said('s2', 'Caroline', 0), said('s2', 'Melanie', 1)]),
    ).toEqual(['s1: Caroline KNOWS Melanie', 's2: Caroline KNOWS Melanie']);
  });

  it('links every pair of a small group, bare (no role) and not ended', () => {
    const out = coSpeakerEdges({
      sentences: [said('g', 'Ann'), said('g', 'Bo'), said('g', 'Cy')],
      anonymousSelf: 'User',
    });
    expect(out.map((r) => `${r.source}-${r.target}`)).toEqual(['Ann-Bo', 'Ann-Cy', 'Bo-Cy']);
    expect(out.every((r) => r.type === 'KNOWS' && !r.ended && Object.keys(r.properties).length === 0)).toBe(true);
  });

  it('gives none for one named speaker, the unnamed user, or a channel of many', () => {
    expect(edges([said('m', 'Frank'), said('m', 'Frank', 1)])).toEqual([]);
    expect(edges([said('c', 'User'), said('c', 'Sam')])).toEqual([]);
    expect(edges(['A', 'B', 'C', 'D', 'E', 'F'].map((n, i) => said('big', n, i)))).toEqual([]);
  });
});
