import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { changeText } from '../../../compile/timeline.js';
import { isPieError, PieError } from '../../../domain/errors.js';
import type { McpDeps } from '../deps.js';
import { errorResult } from '../errors.js';
import { ingestText, MAX_EPISODE_CHARS, type TextIngestResult } from '../../../ingest/ingest-text.js';
import { guarded, iso, respond } from '../respond.js';
import { entityRefSchema, isoTime, stateSchema, withBudget } from '../schemas.js';

const ingestOutput = withBudget({
  episodeId: z.string().describe('stable: a hash of the content'),
  outcome: z
    .enum(['ingested', 'unchanged', 'failed'])
    .describe('ingested: extracted now; unchanged: this content was ingested before; failed: stored, not extracted'),
  title: z.string(),
  time: isoTime,
  extractor: z.string().describe('"offline rules" or the model used'),
  failure: z.string().nullable(),
  counts: z.record(z.string(), z.number().int()).describe('writes by kind, e.g. "entity.insert", "transition.insert"'),
  entities: z.array(entityRefSchema.extend({ isNew: z.boolean() })),
  changes: z.array(
    z.object({
      entity: entityRefSchema,
      kind: z.string(),
      summary: z.string(),
      from: stateSchema.nullable(),
      to: stateSchema,
    }),
  ),
});

/** Registered only when the server may write (not with --read-only). */
export function registerIngestTool(server: McpServer, deps: McpDeps): void {
  const extraction = deps.extraction;
  if (!extraction) throw new PieError('INTERNAL', 'ingest_episode needs an extraction; none was given.');
  server.registerTool(
    'ingest_episode',
    {
      title: 'Remember something',
      description:
        'Adds a piece of information to the world model as a new episode, dated now: a note, a decision, news about ' +
        'a project or person, or an excerpt of the current conversation, written so it stands on its own ("Maya ' +
        'joined Tidepool as CTO; we moved the backend to Supabase."). It goes through the same extraction and entity ' +
        'resolution as a full import, and the answer says which entities it touched and what changed. Sending the ' +
        'same content again changes nothing.',
      inputSchema: {
        content: z
          .string()
          .min(1, { error: 'The content is empty; send the text to remember.' })
          .max(MAX_EPISODE_CHARS, {
            error: `The content is longer than ${MAX_EPISODE_CHARS.toLocaleString('en-US')} characters; send it in parts, or import the file with pie ingest.`,
          })
          .describe("the text to remember, in the user's words where possible"),
        source: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe('where it comes from, e.g. "claude-desktop" or "meeting notes" (default "manual")'),
      },
      outputSchema: ingestOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ content, source }) =>
      guarded(deps, {}, async () => {
        let result: TextIngestResult;
        try {
          result = await ingestText({
            store: deps.store,
            clock: deps.clock,
            tz: deps.tz,
            newId: deps.newId,
            content,
            source: source ?? 'manual',
            extraction: await extraction(),
            ...(deps.leaseWaitMs === undefined ? {} : { leaseWaitMs: deps.leaseWaitMs }),
          });
        } catch (error) {
          // Another process's extraction held the memory: the text is stored, and the answer says so and what to do
          // (an expected outcome, not an unexpected failure).
          if (isPieError(error, 'CONFLICT') && typeof error.details?.storedEpisodeId === 'string') {
            deps.log(`ingest_episode: ${error.details.storedEpisodeId} stored, not extracted yet: ${error.message}`);
            return errorResult({ code: 'CONFLICT', text: error.message });
          }
          throw error;
        }
        if (result.outcome === 'failed') {
          deps.log(`ingest_episode: extraction of ${result.episodeId} failed: ${result.failure ?? 'unknown reason'}`);
          return errorResult({
            code: 'INTERNAL',
            text:
              `The text was stored as episode ${result.episodeId}, but extracting it failed (${result.failure ?? 'unknown reason'}). ` +
              'Sending the same content again retries it (so does the next pie ingest); the rest of the world model is unaffected.',
          });
        }
        return respond(deps, {
          text: reportText(result),
          structured: {
            episodeId: result.episodeId,
            outcome: result.outcome,
            title: result.title,
            time: iso(result.time),
            extractor: result.extractor,
            failure: result.failure,
            counts: result.mutations,
            entities: result.entities,
            changes: result.changes,
          },
          narrow: 'Send a shorter text.',
        });
      }),
  );
}

function reportText(r: TextIngestResult): string {
  const named = (list: TextIngestResult['entities']) => list.map((e) => `${e.name} (${e.type})`).join(', ');
  if (r.outcome === 'unchanged') {
    const about = r.entities.length > 0 ? ` It is about ${named(r.entities)}.` : '';
    return `Already remembered: this content was ingested before as “${r.title}” (${r.episodeId}); nothing changed.${about}`;
  }
  const lines = [`Remembered “${r.title}” (${r.episodeId}), extracted with ${r.extractor}.`];
  const created = r.entities.filter((e) => e.isNew);
  const known = r.entities.filter((e) => !e.isNew);
  if (created.length > 0) lines.push(`New entities: ${named(created)}.`);
  if (known.length > 0) lines.push(`Known entities mentioned: ${named(known)}.`);
  if (r.changes.length > 0) {
    lines.push('Changes recorded:');
    for (const c of r.changes) {
      const diff = c.from ? changeText(c.from, c.to) : '';
      const flag = c.kind === 'contradiction' ? ' (contradicts what was known)' : '';
      lines.push(`  • ${c.entity.name}: ${c.summary}${diff ? ` [${diff}]` : ''}${flag}`);
    }
  }
  if (r.entities.length === 0) {
    lines.push(
      r.extractor === 'offline rules'
        ? 'No entities were recognized (the offline extractor only finds names it can see; a configured model extracts more).'
        : 'No entities were recognized in it.',
    );
  }
  return lines.join('\n');
}
