import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { longDate } from '../../compile/time-format.js';
import { compileTimeline, stateText } from '../../compile/timeline.js';
import { isPieError } from '../../domain/errors.js';
import { findEntity } from '../../world/lookup.js';
import { loadTimeline } from '../../world/timeline.js';
import { countList, num } from '../cli/format.js';
import { fitText } from './budget.js';
import type { McpDeps } from './deps.js';

export const SUMMARY_URI = 'pie://world/summary';
const TOP_ENTITIES = 25;
const RECENT_CHANGES = 10;

/**
 * Resources a client can attach without a tool call: the world summary (counts, periods, the most important
 * entities, the latest changes) and each entity's timeline (pie://entity/{name}). Prompts: a period review.
 */
export function registerResources(server: McpServer, deps: McpDeps): void {
  server.registerResource(
    'world-summary',
    SUMMARY_URI,
    {
      title: 'World summary',
      description:
        "An overview of the user's world model: counts, life periods, the most important entities, the latest changes.",
      mimeType: 'text/markdown',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: bounded(deps, await summary(deps)) }],
    }),
  );

  server.registerResource(
    'entity-timeline',
    new ResourceTemplate('pie://entity/{name}', {
      list: async () => ({
        resources: (await deps.store.entities.list({ limit: 50, orderBy: 'importance', excludeArchived: true })).map(
          (e) => ({
            uri: `pie://entity/${encodeURIComponent(e.name)}`,
            name: e.name,
            title: `${e.name} (${e.type})`,
            mimeType: 'text/plain',
          }),
        ),
      }),
      complete: { name: (value) => completeNames(deps, value) },
    }),
    {
      title: "An entity's timeline",
      description: 'The history of one entity as a temporal narrative (the same text as get_entity_timeline).',
      mimeType: 'text/plain',
    },
    async (uri, variables) => {
      const raw = variables.name;
      const name = decodeURIComponent(Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? ''));
      const entity = await findEntity({ store: deps.store, name }).catch((error: unknown) => {
        if (!isPieError(error, 'NOT_FOUND')) throw error;
        const close = error.details?.suggestions;
        const hint = Array.isArray(close) && close.length > 0 ? ` Close names: ${close.join(', ')}.` : '';
        throw new McpError(ErrorCode.InvalidParams, `No entity is called "${name}".${hint}`);
      });
      const timeline = await loadTimeline({ store: deps.store, entity });
      const text = compileTimeline({ timeline, time: { now: deps.clock.now(), tz: deps.tz, format: 'hybrid' } });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: bounded(deps, text) }] };
    },
  );

  server.registerPrompt(
    'review_period',
    {
      title: 'Review a period of my life',
      description: 'What I worked on, what changed and what is unresolved in one period, from the world model.',
      argsSchema: {
        period: completable(z.string().describe('a period name (or a month such as "May 2024")'), async (value) => {
          const periods = await deps.store.periods.list();
          const v = value.toLowerCase();
          return periods
            .map((p) => p.name)
            .filter((n) => n.toLowerCase().includes(v))
            .slice(0, 20);
        }),
      },
    },
    ({ period }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Review "${period}" using the PIE tools: call get_world_snapshot with period "${period}", then ` +
              `diff_periods from the period before it (see list_periods) to "${period}", and get_contradictions. ` +
              'Then tell me what I was working on, what changed, which beliefs or decisions shifted, and what is still ' +
              'unresolved, citing the dates.',
          },
        },
      ],
    }),
  );
}

async function summary(deps: McpDeps): Promise<string> {
  const { store, tz } = deps;
  const s = await store.stats();
  const lines = ['# World summary', ''];
  const span =
    s.firstEpisodeAt !== null && s.lastEpisodeAt !== null
      ? `, from ${longDate(s.firstEpisodeAt, tz)} to ${longDate(s.lastEpisodeAt, tz)}`
      : '';
  lines.push(
    `${num(s.episodes)} conversations${span}; ${num(s.entities)} entities (${countList(s.entitiesByType)}); ` +
      `${num(s.transitions)} transitions; ${num(s.relationships)} relationships; ${num(s.procedures)} procedures.`,
  );
  const periods = await store.periods.list();
  if (periods.length > 0) {
    lines.push('', '## Periods', '');
    for (const p of periods) {
      lines.push(`- ${p.name}: ${longDate(p.start, tz)} – ${p.end === null ? 'ongoing' : longDate(p.end, tz)}`);
    }
  }
  const top = await store.entities.list({ limit: TOP_ENTITIES, orderBy: 'importance', excludeArchived: true });
  const shown = top.filter((e) => e.type !== 'period');
  if (shown.length > 0) {
    lines.push('', '## Most important entities', '');
    for (const e of shown) {
      const state = stateText(e.state);
      lines.push(`- ${e.name} (${e.type})${state ? `: ${state}` : ''}; last seen ${longDate(e.lastSeen, tz)}`);
    }
  }
  const latest = await store.transitions.latest({ until: deps.clock.now() + 1, limit: RECENT_CHANGES });
  const names = new Map(
    (await store.entities.getMany([...new Set(latest.map((t) => t.entityId))])).map((e) => [e.id, e.name]),
  );
  if (latest.length > 0) {
    lines.push('', '## Latest changes', '');
    for (const t of latest) lines.push(`- ${longDate(t.eventTime, tz)}, ${names.get(t.entityId) ?? '?'}: ${t.summary}`);
  }
  if (s.entities === 0) lines.push('', 'The world model is empty; import a chat export with pie ingest.');
  return lines.join('\n');
}

async function completeNames(deps: McpDeps, value: string): Promise<string[]> {
  const v = value.toLowerCase();
  const list = await deps.store.entities.list({ limit: 500, orderBy: 'importance', excludeArchived: true });
  return list
    .flatMap((e) => [e.name, ...e.aliases])
    .filter((n) => n.toLowerCase().startsWith(v))
    .slice(0, 20);
}

function bounded(deps: McpDeps, text: string): string {
  return fitText({
    text,
    maxTokens: deps.maxTokens,
    count: deps.countTokens,
    narrow: 'Use the tools (get_world_snapshot, get_entity_timeline) for details.',
  }).text;
}
