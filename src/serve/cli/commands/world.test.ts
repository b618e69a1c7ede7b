import { describe, expect, it } from 'vitest';
import { noEntities } from './world.js';

describe('noEntities: why `pie entities` lists nothing', () => {
  it.each([
    [{ episodes: 0, episodesPendingExtraction: 0 }, 'No entities yet; run pie ingest first.'],
    [
      { episodes: 3, episodesPendingExtraction: 1 },
      'No entities yet: 1 conversation waits for extraction (pie ingest resumes it).',
    ],
    [
      { episodes: 3, episodesPendingExtraction: 2 },
      'No entities yet: 2 conversations wait for extraction (pie ingest resumes it).',
    ],
    [
      { episodes: 3, episodesPendingExtraction: 0 },
      'No entities: 3 conversations stored, none naming anything the extractor recognized (pie search still finds what they say; a model extracts more, see docs/llm.md).',
    ],
  ])('%o', (stats, text) => {
    expect(noEntities(stats)).toBe(text);
  });
});
