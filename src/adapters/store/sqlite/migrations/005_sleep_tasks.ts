import type { Migration } from './types.js';

/**
 * Schema 5: sleep tasks (KIP sleep spec, phase 2). Ingestion, queries and the cycle itself leave work items for the
 * next sleep cycle (a contradiction to resolve, a possible duplicate, a low-confidence fact, a stale but important
 * entity); the cycle processes them and records the result. `dedupe_key` keeps one open task per subject: leaving
 * the same task twice while it is still pending adds nothing. A finished task gets an `expires_at`, after which the
 * cycle's TTL phase deletes it (journaled, so `pie undo` brings it back).
 */
const sql = `
CREATE TABLE sleep_tasks (
  id           TEXT PRIMARY KEY,
  action       TEXT NOT NULL,
  subject_ids  TEXT NOT NULL DEFAULT '[]',
  payload      TEXT NOT NULL DEFAULT '{}',
  priority     INTEGER NOT NULL DEFAULT 50,
  status       TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'in_progress', 'completed', 'dismissed', 'failed')),
  source       TEXT NOT NULL,
  reason       TEXT NOT NULL,
  attempts     INTEGER NOT NULL DEFAULT 0,
  result       TEXT,
  dedupe_key   TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  completed_at INTEGER,
  expires_at   INTEGER
);
CREATE UNIQUE INDEX sleep_tasks_open_key ON sleep_tasks (dedupe_key) WHERE status IN ('pending', 'in_progress');
CREATE INDEX sleep_tasks_by_status ON sleep_tasks (status, priority DESC, created_at);
CREATE INDEX sleep_tasks_by_expiry ON sleep_tasks (expires_at) WHERE expires_at IS NOT NULL;
`;

export const migration005: Migration = { version: 5, name: 'sleep_tasks', sql };
