import { describe, expect, it } from 'vitest';
import { emptyEvidenceReport, normalizeEvidence, parseEvidenceEntry } from '../../src/bench/evidence.js';

describe('LoCoMo evidence ids', () => {
  it('repairs the broken forms found in locomo10.json', () => {
    expect(parseEvidenceEntry('D8:6; D9:17')).toEqual(['D8:6', 'D9:17']);
    expect(parseEvidenceEntry('D9:1 D4:4 D4:6')).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(parseEvidenceEntry('D:11:26')).toEqual(['D11:26']);
    expect(parseEvidenceEntry('D30:05')).toEqual(['D30:5']);
    expect(parseEvidenceEntry('D')).toEqual([]);
    expect(parseEvidenceEntry('')).toEqual([]);
  });

  it('keeps only ids of existing turns and counts what it could not use, never throwing', () => {
    const known = new Set(['D1:1', 'D1:2', 'D3:1']);
    const report = emptyEvidenceReport();
    expect(normalizeEvidence({ evidence: ['D1:01', 'D1:1'], known, report })).toEqual(['D1:1']);
    expect(normalizeEvidence({ evidence: ['D:3:1; D10:19'], known, report })).toEqual(['D3:1']);
    expect(normalizeEvidence({ evidence: ['D'], known, report })).toEqual([]);
    expect(normalizeEvidence({ evidence: undefined, known, report })).toEqual([]);
    expect(normalizeEvidence({ evidence: [42], known, report })).toEqual([]);
    expect(report).toEqual({ raw: 5, repaired: 2, unparseable: 2, missing: 1, questionsWithout: 3 });
  });
});
