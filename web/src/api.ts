/** The API client: JSON in and out, the bearer token from this tab's session when the server asks for one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly suggestions: string[],
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'pie-token';

export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  const data = (await res.json().catch(() => ({}))) as ErrorBody;
  if (!res.ok) throw apiError(res.status, data, `The server answered ${res.status}.`);
  return data as T;
}

interface ErrorBody {
  error?: { code: string; message: string; suggestions?: string[] };
}

/** The server's own error (code, sentence, suggestions), else `fallback`. */
function apiError(status: number, data: ErrorBody, fallback: string): ApiError {
  const e = data.error;
  return new ApiError(status, e?.code ?? 'HTTP', e?.message ?? fallback, e?.suggestions ?? []);
}

export function get<T>(path: string, query: Record<string, string | number | boolean | undefined> = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return call<T>('GET', qs ? `${path}?${qs}` : path);
}

/** A file from the API (with the token), handed to the browser as a download. */
export async function download(path: string): Promise<void> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const res = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const data = (await res.json().catch(() => ({}))) as ErrorBody;
    throw apiError(res.status, data, `The download failed (${res.status}).`);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function post<T>(path: string, body: unknown): Promise<T> {
  return call<T>('POST', path, body);
}

/**
 * A POST answered with JSON lines (application/x-ndjson), each handed to `onLine` as soon as it has arrived; a line
 * `{type: "error", error}` is thrown as the server's error. Resolves when the answer ends.
 */
export async function postLines(
  path: string,
  body: unknown,
  onLine: (line: Record<string, unknown>) => void,
  signal?: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = { accept: 'application/x-ndjson', 'content-type': 'application/json' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), signal: signal ?? null });
  if (!res.ok || res.body === null) {
    const data = (await res.json().catch(() => ({}))) as ErrorBody;
    throw apiError(res.status, data, `The server answered ${res.status}.`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  const take = (text: string): void => {
    const line = JSON.parse(text) as Record<string, unknown> & ErrorBody;
    if (line.type === 'error') throw apiError(500, line, 'The server failed.');
    onLine(line);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += value;
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (text.trim() !== '') take(text);
    }
  }
  if (pending.trim() !== '') take(pending);
}

// Response shapes (the parts the UI reads).
export interface EntityRef {
  id: string;
  name: string;
  type: string;
}
export interface Entity extends EntityRef {
  aliases: string[];
  state: Record<string, unknown>;
  firstSeen: string;
  lastSeen: string;
  importance: number;
  tier: string;
}
export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}
export interface TransitionOut {
  id: string;
  kind: string;
  summary: string;
  time: string;
  from: Record<string, unknown> | null;
  to: Record<string, unknown>;
  episodeId: string | null;
  episodeTitle: string | null;
  contradiction: boolean;
  unresolvedContradiction: boolean;
}
export interface RelationshipOut {
  id: string;
  type: string;
  direction: 'in' | 'out';
  source: EntityRef;
  target: EntityRef;
  /** Role, since/until as the conversation said them … */
  properties: Record<string, string | number | boolean | null>;
  since: string;
  until: string | null;
}
export interface EntityPeriodOut {
  id: string;
  name: string;
  start: string;
  end: string | null;
  ongoing: boolean;
  during: boolean;
  mentions: number;
  changes: number;
}
export interface EntityView {
  entity: Entity;
  /** The other entities of its name, each opened by its id. */
  sameName: EntityRef[];
  /** When the entity is itself a period: its span. */
  period: { start: string; end: string | null; ongoing: boolean } | null;
  periods: EntityPeriodOut[];
  narrative: string;
  transitions: Page<TransitionOut>;
  relationships: RelationshipOut[];
  relationshipsTotal: number;
  sources: { episodeId: string; title: string; time: string }[];
}
export interface SearchItem {
  kind: 'entity' | 'transition' | 'episode' | 'turn';
  title: string;
  snippet: string | null;
  time: string | null;
  entity: EntityRef | null;
  episodeId: string | null;
  seq: number | null;
}
export interface Source {
  n: number;
  episodeId: string;
  title: string;
  time: string;
}
export interface AskOut {
  question: string;
  answer: { text: string; model: string; cached: boolean } | null;
  context: string;
  /** Without a model: the entity cards and changes the context is made of, and its sources. */
  memory?: string | null;
  sources: Source[];
}
export interface IngestOut {
  episodeId: string;
  outcome: 'ingested' | 'unchanged' | 'failed';
  extractor: string;
  failure: string | null;
  entities: (EntityRef & { isNew: boolean })[];
  changes: { entity: EntityRef; summary: string }[];
}
export type ChatOut =
  ({ route: 'question' } & AskOut) | ({ route: 'statement' } & IngestOut) | { route: 'small-talk'; text: string };
export interface Period {
  name: string;
  start: string;
  end: string | null;
  ongoing: boolean;
}
export interface GraphOut {
  centre: string;
  truncated: boolean;
  /** How many edges the neighbourhood had before the server's edge cap. */
  edgeTotal: number;
  nodes: (EntityRef & { importance: number; tier: string })[];
  edges: { id: string; source: string; target: string; type: string; since: string | null; until: string | null }[];
}
/** A sleep phase's line in a report or a streamed preview. */
export interface PhaseOut {
  name: string;
  status: string;
  changes: number;
  reason?: string;
  /** What the phase did, line by line, with the entities each line names. */
  items?: { text: string; entities: { id: string; name: string }[] }[];
}
export interface SleepOut {
  runId: string;
  scope: string;
  dryRun: boolean;
  phases: PhaseOut[];
  health: { entities: number; warnings: string[] };
  journaled: number;
  /** A dry run's identity: applying it sends this back, and the server refuses when anything changed since. */
  previewId: string | null;
}
export interface Status {
  version: string;
  readOnly: boolean;
  model: string | null;
  now: string;
  stats: { entities: number; episodes: number; transitions: number; relationships: number };
}
