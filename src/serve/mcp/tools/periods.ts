import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { longDate } from '../../../compile/time-format.js';
import { humanizeDuration } from '../../../domain/humanize.js';
import type { Period, Procedure } from '../../../domain/world.js';
import { undatedPeriods } from '../../../query/undated-periods.js';
import { normalizeName } from '../../../resolve/normalize.js';
import type { McpDeps } from '../deps.js';
import { guarded, iso, READ_ONLY, respond } from '../respond.js';
import { isoTime, limitInput, withBudget } from '../schemas.js';

const periodSchema = z.object({
  id: z.string().describe('the period entity id'),
  name: z.string(),
  start: isoTime,
  end: isoTime.nullable().describe('null while ongoing'),
  ongoing: z.boolean(),
});

const undatedSchema = z.object({
  id: z.string().describe('the period entity id'),
  name: z.string(),
  status: z.string().nullable().describe('"ended", "active" … when the conversations said'),
  lastMentioned: isoTime,
});

const procedureSchema = z.object({
  id: z.string(),
  description: z.string(),
  steps: z.array(z.string()),
  domain: z.string().nullable(),
  timesObserved: z.number().int(),
  firstObserved: isoTime,
  lastObserved: isoTime,
  confidence: z.number(),
  evidence: z.array(z.string()).describe('ids of the episodes and entities it was mined from'),
});

export function registerPeriodTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'list_periods',
    {
      title: 'Life periods',
      description:
        'The periods of the user\'s life PIE found (e.g. "junior year at UMD", "gap semester in San Francisco"), in ' +
        'time order with their start and end. Their names work as `period` in get_world_snapshot and diff_periods. ' +
        "Also the periods the conversations name without dates (someone's childhood, a spell of unemployment).",
      inputSchema: {},
      outputSchema: withBudget({
        periods: z.array(periodSchema),
        undated: z.array(undatedSchema).describe('periods named in the conversations, with no start or end known'),
      }),
      annotations: READ_ONLY,
    },
    () =>
      guarded(deps, {}, async () => {
        const periods = await deps.store.periods.list();
        const undated = await undatedPeriods(deps.store);
        const now = deps.clock.now();
        const lines: string[] = [];
        if (periods.length > 0) {
          lines.push(
            `${periods.length} ${periods.length === 1 ? 'period' : 'periods'}, in time order:`,
            ...periods.map((p) => `  • ${periodLine(p, now, deps.tz)}`),
          );
        }
        if (undated.length > 0) {
          lines.push(
            'Named in the conversations, without dates:',
            ...undated.map(
              (p) =>
                `  • ${p.name}${p.status ? ` (${p.status})` : ''}, last mentioned ${longDate(p.lastSeen, deps.tz)}`,
            ),
          );
        }
        const text =
          lines.length === 0
            ? 'PIE knows no periods yet; they come from ingesting conversations (pie ingest, or ingest_episode).'
            : lines.join('\n');
        return respond(deps, {
          text,
          structured: {
            periods: periods.map(periodOut),
            undated: undated.map((p) => ({ id: p.id, name: p.name, status: p.status, lastMentioned: iso(p.lastSeen) })),
          },
          narrow: 'Use get_world_snapshot with one period name for details.',
        });
      }),
  );

  server.registerTool(
    'get_procedures',
    {
      title: 'Procedures (recurring patterns)',
      description:
        'How the user usually does things: procedures mined from recurring patterns in their history, each with its ' +
        'ordered steps, how often and when it was observed, and its confidence. Optionally only one domain ' +
        '(e.g. "starting a project"); an unknown domain lists the known ones.',
      inputSchema: {
        domain: z.string().min(1).max(200).optional().describe('only procedures of this domain (case-insensitive)'),
        limit: limitInput('procedures', 20, 100),
      },
      outputSchema: withBudget({
        domain: z.string().nullable(),
        total: z.number().int(),
        domains: z.array(z.string()).describe('every known domain'),
        procedures: z.array(procedureSchema),
      }),
      annotations: READ_ONLY,
    },
    ({ domain, limit }) =>
      guarded(deps, {}, async () => {
        const all = await deps.store.procedures.list();
        const domains = [...new Set(all.flatMap((p) => (p.domain ? [p.domain] : [])))].sort();
        const matching = domain === undefined ? all : all.filter((p) => inDomain(p, domain));
        const shown = matching.slice(0, limit ?? 20);
        return respond(deps, {
          text: proceduresText({ shown, total: matching.length, domain, domains, all: all.length, tz: deps.tz }),
          structured: { domain: domain ?? null, total: matching.length, domains, procedures: shown.map(procedureOut) },
          narrow: 'Pass a domain or a smaller limit.',
        });
      }),
  );
}

function periodLine(p: Period, now: number, tz: string): string {
  const end = p.end === null ? 'ongoing' : longDate(p.end, tz);
  const length = humanizeDuration((p.end ?? now) - p.start);
  return `${p.name}: ${longDate(p.start, tz)} – ${end} (${length})`;
}

function periodOut(p: Period) {
  return { id: p.entityId, name: p.name, start: iso(p.start), end: iso(p.end), ongoing: p.end === null };
}

/** The domain as given, or every word of it, in the procedure's domain (case and accents ignored). */
function inDomain(p: Procedure, domain: string): boolean {
  if (!p.domain) return false;
  const have = normalizeName(p.domain);
  const want = normalizeName(domain);
  return have === want || want.split(' ').every((w) => have.split(' ').includes(w));
}

function proceduresText(input: {
  shown: Procedure[];
  total: number;
  domain: string | undefined;
  domains: string[];
  all: number;
  tz: string;
}): string {
  const { shown, total, domain, domains, tz } = input;
  if (input.all === 0) {
    return 'PIE has not found any procedures yet: they are mined from patterns that recur across many conversations, so they appear as the history grows.';
  }
  if (total === 0) {
    const known = domains.length > 0 ? ` Known domains: ${domains.map((d) => `"${d}"`).join(', ')}.` : '';
    return `No procedures in the domain "${domain ?? ''}".${known} Call get_procedures with one of them, or without a domain.`;
  }
  const head = `${total} ${total === 1 ? 'procedure' : 'procedures'}${domain ? ` in "${domain}"` : ''}, most observed first${shown.length < total ? ` (the first ${shown.length})` : ''}:`;
  const lines = [head];
  shown.forEach((p, i) => {
    lines.push(
      `${i + 1}. ${p.description}${p.domain && !p.description.startsWith(p.domain) ? ` [${p.domain}]` : ''} — observed ${p.timesObserved} ${p.timesObserved === 1 ? 'time' : 'times'}, ` +
        `${longDate(p.firstObserved, tz)} to ${longDate(p.lastObserved, tz)}; confidence ${p.confidence.toFixed(2)}`,
    );
    p.pattern.forEach((step, j) => lines.push(`   ${j + 1}) ${step}`));
  });
  return lines.join('\n');
}

function procedureOut(p: Procedure) {
  return {
    id: p.id,
    description: p.description,
    steps: p.pattern,
    domain: p.domain,
    timesObserved: p.timesObserved,
    firstObserved: iso(p.firstObserved),
    lastObserved: iso(p.lastObserved),
    confidence: p.confidence,
    evidence: p.evidence,
  };
}
