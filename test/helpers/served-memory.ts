import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CliResult } from './cli.js';
import type { ExtractRule } from './sample-model.js';
import { startMcpHttpChild, startServeChild, stopServerChild, type ServerChild } from './server-child.js';

/**
 * `pie serve` and `pie mcp --http` as real child processes on one memory, for the many-processes tests (issue 18):
 * read loads that count every request and keep every failure, and one note written through each server.
 */

export const SERVE_TOKEN = 'serve-e2e-token-0123456789abcdef';
export const MCP_TOKEN = 'mcp-e2e-token-fedcba9876543210xyz';

/**
 * The two notes written through the servers, one each. Their markers appear only in the notes' own texts (never in
 * an entity name or summary, so never in another batch's preamble), so the scripted model answers them the same
 * whichever process extracts them, alone or together in one daily batch.
 */
export const NOTES = {
  mcp: 'Started sketching the Kestrel Foundry kiln controller this evening.\nIt will run on a small board. (e2e note mcp-7f3c)',
  http: 'Had coffee with Marta Quill, who restores old typewriters.\nShe offered to look at the Olivetti. (e2e note http-9b1d)',
} as const;
const MARKERS = { mcp: 'e2e note mcp-7f3c', http: 'e2e note http-9b1d' } as const;

const KESTREL = {
  entities: [{ name: 'Kestrel Foundry', type: 'project', state: { stage: 'prototype' } }],
  relationships: [{ source: 'I', target: 'Kestrel Foundry', type: 'WORKS_ON' }],
};
const MARTA = {
  entities: [{ name: 'Marta Quill', type: 'person', state: { hobby: 'typewriters' } }],
  relationships: [{ source: 'I', target: 'Marta Quill', type: 'EXPLORED' }],
};

/** The scripted model's answers for the notes: both in one batch, or each alone. */
export const NOTE_RULES: readonly ExtractRule[] = [
  {
    contains: [MARKERS.mcp, MARKERS.http],
    response: {
      entities: [...KESTREL.entities, ...MARTA.entities],
      relationships: [...KESTREL.relationships, ...MARTA.relationships],
      summary: 'Notes about a kiln controller and a coffee.',
    },
  },
  { contains: MARKERS.mcp, response: { ...KESTREL, summary: 'A kiln controller.' } },
  { contains: MARKERS.http, response: { ...MARTA, summary: 'A coffee.' } },
];

/** How a note write ended: extracted now (or before), or stored while another extraction held the memory. */
export type NoteOutcome = { stored: 'extracted'; outcome: string } | { stored: 'pending'; message: string };

export interface Served {
  serve: ServerChild;
  mcp: ServerChild;
  /** A request to pie serve's API with its token. */
  api(path: string, body?: object): Promise<{ status: number; text: string }>;
  /** MCP sessions: one for the read load, one for writes (so a write waiting for the memory delays no read). */
  reader: Client;
  writer: Client;
  /** Closes the sessions and stops both servers with SIGTERM. */
  stop(): Promise<{ serve: CliResult; mcp: CliResult }>;
}

/**
 * The servers' clock, so the notes' time: inside the sample export's span (2024-09-03 to 2025-10-22), so the notes
 * never become the memory's latest activity, which a sleep measures staleness from (docs/metabolism.md, "Tiers").
 */
export const SERVED_NOW = '2025-06-01';

/** Starts `pie serve` and `pie mcp --http` on `db` (each with its token) and connects two MCP sessions. */
export async function startServed(input: { db: string; env: Record<string, string> }): Promise<Served> {
  const globals = ['--db', input.db, '--tz', 'UTC', '--now', SERVED_NOW];
  const [serve, mcp] = await Promise.all([
    startServeChild(globals, [], { ...input.env, PIE_TOKEN: SERVE_TOKEN }),
    startMcpHttpChild(globals, [], { ...input.env, PIE_MCP_TOKEN: MCP_TOKEN }),
  ]);
  const connect = async (): Promise<Client> => {
    const client = new Client({ name: 'pie-e2e-many-processes', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), {
      requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
    });
    await client.connect(transport);
    return client;
  };
  const [reader, writer] = [await connect(), await connect()];
  return {
    serve,
    mcp,
    reader,
    writer,
    api: async (path, body) => {
      const res = await fetch(new URL(path, serve.url), {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${SERVE_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, text: await res.text() };
    },
    stop: async () => {
      await reader.close().catch(() => undefined);
      await writer.close().catch(() => undefined);
      const [s, m] = await Promise.all([stopServerChild(serve), stopServerChild(mcp)]);
      return { serve: s, mcp: m };
    },
  };
}

/** What the read load did: requests answered, failures (each one described), and overlap seen by the servers. */
export interface LoadReport {
  http: number;
  mcp: number;
  failures: string[];
  /** `/api/status` answers that counted episodes still waiting for extraction. */
  whilePending: number;
}

const QUESTION = 'How has Tidepool changed?';

/**
 * Reads in a loop through both servers until stopped: entity list, search, the compiled context (`/api/ask` with
 * `context_only`, which records access counts: a write) and the status over HTTP; `query_world` (also recording
 * access), `search_memory`, `get_entity` and `get_world_snapshot` over MCP. Every answer must succeed.
 */
export function readLoad(served: Served): { report: LoadReport; stop(): Promise<LoadReport> } {
  const report: LoadReport = { http: 0, mcp: 0, failures: [], whilePending: 0 };
  let stopping = false;
  const httpLoop = async (): Promise<void> => {
    const reads: [string, object | undefined][] = [
      ['/api/entities?limit=20', undefined],
      ['/api/search?q=Tidepool', undefined],
      ['/api/ask', { question: QUESTION, context_only: true }],
      ['/api/status', undefined],
    ];
    while (!stopping) {
      for (const [path, body] of reads) {
        const r = await served.api(path, body).catch((e: unknown) => ({ status: 0, text: String(e) }));
        report.http += 1;
        if (r.status !== 200) {
          report.failures.push(`HTTP ${path}: ${r.status} ${r.text.slice(0, 300)}`);
          continue;
        }
        if (path === '/api/status') {
          const status = JSON.parse(r.text) as { stats: { episodesPendingExtraction: number } };
          if (status.stats.episodesPendingExtraction > 0) report.whilePending += 1;
        }
      }
    }
  };
  const mcpLoop = async (): Promise<void> => {
    const calls: [string, Record<string, unknown>][] = [
      ['query_world', { query: QUESTION }],
      ['search_memory', { query: 'Tidepool' }],
      ['get_entity', { name: 'Tidepool' }],
      ['get_world_snapshot', { limit: 10 }],
    ];
    while (!stopping) {
      for (const [name, args] of calls) {
        const r = await call(served.reader, name, args).catch((e: unknown) => errorOf(String(e)));
        report.mcp += 1;
        if (r.isError) report.failures.push(`MCP ${name}: ${textOf(r).slice(0, 300)}`);
      }
    }
  };
  const loops = Promise.all([httpLoop(), mcpLoop()]);
  return {
    report,
    stop: async () => {
      stopping = true;
      await loops;
      return report;
    },
  };
}

/** Writes NOTES.mcp with `ingest_episode`. A CONFLICT saying it is stored but not extracted yet is an outcome. */
export async function writeMcpNote(served: Served): Promise<NoteOutcome> {
  const r = await call(served.writer, 'ingest_episode', { content: NOTES.mcp, source: 'e2e-mcp' });
  if (!r.isError) return { stored: 'extracted', outcome: (r.structuredContent as { outcome: string }).outcome };
  const code = (r._meta?.['pie/error'] as { code?: string } | undefined)?.code;
  if (code === 'CONFLICT' && textOf(r).includes('stored but not extracted yet')) {
    return { stored: 'pending', message: textOf(r) };
  }
  throw new Error(`ingest_episode failed: ${textOf(r)}`);
}

/** Writes NOTES.http with `POST /api/episodes`; a 409 saying it is stored but not extracted yet is an outcome. */
export async function writeHttpNote(served: Served): Promise<NoteOutcome> {
  const r = await served.api('/api/episodes', { content: NOTES.http, source: 'e2e-http' });
  if (r.status === 200) return { stored: 'extracted', outcome: (JSON.parse(r.text) as { outcome: string }).outcome };
  if (r.status === 409 && r.text.includes('stored but not extracted yet'))
    return { stored: 'pending', message: r.text };
  throw new Error(`POST /api/episodes failed: ${r.status} ${r.text}`);
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  // A write may wait for another process's extraction (up to 30 s) before it answers.
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as CallToolResult;
}

function errorOf(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
