import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isPieError } from '../../../domain/errors.js';
import { applyForget, planForget } from '../../../privacy/forget.js';
import type { ForgetPlan } from '../../../privacy/forget-plan.js';
import { countsText, describeCompaction, describeForgetPlan, targetLine } from '../../../privacy/forget-report.js';
import { FORGET_KINDS } from '../../../privacy/forget-target.js';
import type { CompactReport } from '../../../ports/forget-store.js';
import type { McpDeps } from '../deps.js';
import { errorResult } from '../errors.js';
import { guarded, respond } from '../respond.js';
import { entityRefSchema, withBudget } from '../schemas.js';

const count = z.number().int();

const forgetOutput = withBudget({
  planId: z.string().describe('pass as confirm, with the same target and kind, to apply exactly this plan'),
  applied: z.boolean().describe('false: only the plan (nothing was removed); true: it is forgotten'),
  target: z.object({ kind: z.enum(FORGET_KINDS), asked: z.string(), description: z.string() }),
  counts: z.record(z.string(), count).describe('what goes, by kind (turns, episodes, facts, ftsRows, journalRows …)'),
  entities: z.object({
    deleted: z.array(entityRefSchema),
    kept: z.array(entityRefSchema.extend({ otherSources: count.describe('conversations that still hold it') })),
  }),
  repairs: z.record(z.string(), count).describe('what stays and is re-derived from what remains'),
  stillNamedIn: count.describe('conversations that stay and still name a forgotten entity'),
  compact: z
    .object({
      bytesBefore: count,
      bytesAfter: count,
      walTruncated: z.boolean(),
      storage: z.enum(['file', 'server']).optional(),
    })
    .nullable()
    .describe('the database file rewritten after applying; null for a plan'),
});

/** Registered only when the server may write (not with --read-only): the same two steps as `pie forget`. */
export function registerForgetTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'forget',
    {
      title: 'Forget something (after the user agrees)',
      description:
        "Removes something from the user's memory for good, with everything derived only from it: an entity (its " +
        'name, an alias or its id), a conversation (its id or exact title), or every turn containing a text. Call ' +
        'it first WITHOUT confirm: nothing is removed, and the answer is the plan (what would go, which entities ' +
        'go and which stay because other conversations hold them) with its planId. Show the plan to the user; ' +
        'only if they agree, call again with the same target (and kind) and confirm set to that planId. If the ' +
        'memory changed in between, nothing is removed and the call fails: ask for the plan again. There is no undo.',
      inputSchema: {
        target: z
          .string()
          .min(1, { error: 'The target is empty; name the entity, the conversation or the text to forget.' })
          .max(1000)
          .describe("an entity's name, alias or id; a conversation's id or exact title; or a text to find in turns"),
        kind: z
          .enum(FORGET_KINDS)
          .optional()
          .describe(
            'what the target is, when it is ambiguous (default: a conversation id, an entity, a title, a text)',
          ),
        confirm: z
          .string()
          .max(100)
          .optional()
          .describe('the planId of the plan the user agreed to; without it nothing is removed'),
      },
      outputSchema: forgetOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ target, kind, confirm }) =>
      guarded(deps, {}, async () => {
        if (confirm === undefined) {
          const plan = await planForget({ store: deps.store, target, kind });
          const how = `Nothing has been removed. To forget this, show the plan to the user and, only if they agree, call forget again with the same target${kind ? ` and kind` : ''} and confirm: "${plan.id}". There is no undo.`;
          return answer(deps, plan, null, [...describeForgetPlan(plan, deps.tz), how].join('\n'));
        }
        try {
          const { plan, compact } = await applyForget({
            store: deps.store,
            target,
            kind,
            planId: confirm,
            now: deps.clock.now(),
            purpose: 'mcp forget',
          });
          const text = [
            targetLine(plan.target, deps.tz).replace(/^Forget/, 'Forgot'),
            `Removed: ${countsText(plan.counts)}.`,
            describeCompaction(compact, deps.store.info().location),
          ].join('\n');
          return answer(deps, plan, compact, text);
        } catch (error) {
          if (!isPieError(error, 'CONFLICT')) throw error;
          const changed = typeof error.details?.planId === 'string';
          return errorResult({
            code: 'CONFLICT',
            text: changed
              ? `Nothing was forgotten: the memory changed since plan ${confirm.trim()} was made, so it is not the plan the user agreed to. Call forget again without confirm, show the new plan to the user, and confirm its planId only if they agree.`
              : `Nothing was forgotten: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`,
          });
        }
      }),
  );
}

function answer(deps: McpDeps, plan: ForgetPlan, compact: CompactReport | null, text: string): CallToolResult {
  return respond(deps, {
    text,
    structured: {
      planId: plan.id,
      applied: compact !== null,
      target: { kind: plan.target.kind, asked: plan.target.asked, description: targetLine(plan.target, deps.tz) },
      counts: { ...plan.counts },
      entities: plan.entities,
      repairs: { ...plan.repairs },
      stillNamedIn: plan.stillNamedIn,
      compact,
    },
    narrow: 'Forget a narrower target (one conversation, or a longer text).',
  });
}
