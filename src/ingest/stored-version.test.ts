import { describe, expect, it } from 'vitest';
import type { ConversationSource } from '../domain/conversation.js';
import { importVerdict, type ImportVerdict } from './stored-version.js';

const T = 1_753_828_357_730;

interface Row {
  label: string;
  source: ConversationSource;
  updatedAt: number;
  hash: string;
  stored: { source: string; updatedAt: number; contentHash: string } | null;
  verdict: ImportVerdict;
}

const rows: Row[] = [
  { label: 'nothing stored', source: 'chatgpt', updatedAt: T, hash: 'h2', stored: null, verdict: 'insert' },
  {
    label: 'same content, newer export (times bumped)',
    source: 'chatgpt',
    updatedAt: T + 70_000,
    hash: 'h1',
    stored: { source: 'chatgpt', updatedAt: T, contentHash: 'h1' },
    verdict: 'unchanged',
  },
  {
    label: 'same content, older export',
    source: 'chatgpt',
    updatedAt: T - 70_000,
    hash: 'h1',
    stored: { source: 'chatgpt', updatedAt: T, contentHash: 'h1' },
    verdict: 'unchanged',
  },
  {
    label: 'ChatGPT: newer version',
    source: 'chatgpt',
    updatedAt: T + 70_000,
    hash: 'h2',
    stored: { source: 'chatgpt', updatedAt: T, contentHash: 'h1' },
    verdict: 'update',
  },
  {
    label: 'ChatGPT: older version',
    source: 'chatgpt',
    updatedAt: T - 70_000,
    hash: 'h0',
    stored: { source: 'chatgpt', updatedAt: T, contentHash: 'h1' },
    verdict: 'keep-stored',
  },
  {
    label: 'ChatGPT: one millisecond older',
    source: 'chatgpt',
    updatedAt: T - 1,
    hash: 'h0',
    stored: { source: 'chatgpt', updatedAt: T, contentHash: 'h1' },
    verdict: 'keep-stored',
  },
  {
    label: 'ChatGPT: same update time, other content (read differently): update',
    source: 'chatgpt',
    updatedAt: T,
    hash: 'h2',
    stored: { source: 'chatgpt', updatedAt: T, contentHash: 'h1' },
    verdict: 'update',
  },
  {
    label: 'Claude: older version',
    source: 'claude',
    updatedAt: T - 1000,
    hash: 'h0',
    stored: { source: 'claude', updatedAt: T, contentHash: 'h1' },
    verdict: 'keep-stored',
  },
  {
    label: 'Claude: newer version',
    source: 'claude',
    updatedAt: T + 1000,
    hash: 'h2',
    stored: { source: 'claude', updatedAt: T, contentHash: 'h1' },
    verdict: 'update',
  },
  {
    label: 'JSONL log: no update time of its own, last import wins',
    source: 'jsonl',
    updatedAt: T - 70_000,
    hash: 'h0',
    stored: { source: 'jsonl', updatedAt: T, contentHash: 'h1' },
    verdict: 'update',
  },
  {
    label: 'markdown note: an older file time still replaces',
    source: 'markdown',
    updatedAt: T - 70_000,
    hash: 'h0',
    stored: { source: 'markdown', updatedAt: T, contentHash: 'h1' },
    verdict: 'update',
  },
  {
    label: 'benchmark session: last import wins',
    source: 'locomo',
    updatedAt: T - 70_000,
    hash: 'h0',
    stored: { source: 'locomo', updatedAt: T, contentHash: 'h1' },
    verdict: 'update',
  },
  {
    label: 'a bare episode pie apply made under the id: no comparable time',
    source: 'chatgpt',
    updatedAt: T - 70_000,
    hash: 'h0',
    stored: { source: 'apply', updatedAt: T, contentHash: 'bare:chatgpt:c1' },
    verdict: 'update',
  },
];

describe('importVerdict', () => {
  it.each(rows)('$label → $verdict', ({ source, updatedAt, hash, stored, verdict }) => {
    expect(importVerdict({ incoming: { source, updatedAt }, hash, stored })).toBe(verdict);
  });
});
