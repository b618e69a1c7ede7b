/**
 * People who talk with each other know each other: a conversation between named speakers (LoCoMo's two friends, a
 * group chat log) gives a KNOWS edge for each pair of them, from that conversation. The pair is written in name order
 * so that every session tells the same edge (who spoke first changes from one session to the next). A chat of more
 * than MAX_SPEAKERS names is a channel, not a circle of acquaintances: it gives none.
 */
import type { RelationshipFinding, Sentence } from '../findings.js';

const MAX_SPEAKERS = 5;

export function coSpeakerEdges(input: {
  sentences: readonly Sentence[];
  anonymousSelf: string;
}): RelationshipFinding[] {
  const byEpisode = new Map<string, Set<string>>();
  for (const s of input.sentences) {
    if (s.self === input.anonymousSelf) continue;
    const names = byEpisode.get(s.episodeId) ?? new Set<string>();
    names.add(s.self);
    byEpisode.set(s.episodeId, names);
  }
  const out: RelationshipFinding[] = [];
  for (const [episodeId, names] of byEpisode) {
    if (names.size < 2 || names.size > MAX_SPEAKERS) continue;
    const sorted = [...names].sort();
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        out.push({
          source: sorted[i] as string,
          target: sorted[j] as string,
          type: 'KNOWS',
          properties: {},
          ended: false,
          confidence: 0.7,
          episodeId,
        });
      }
    }
  }
  return out;
}
