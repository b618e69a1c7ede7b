import type { Status } from './api.js';

let status: Status | null = null;

/** What /api/status said at start (null before, or when it needed a token). */
export function serverStatus(): Status | null {
  return status;
}

export function setServerStatus(value: Status): void {
  status = value;
}
