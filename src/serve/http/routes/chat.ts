import { z } from 'zod';
import { PieError } from '../../../domain/errors.js';
import { ingestText, MAX_EPISODE_CHARS, type TextIngestResult } from '../../../ingest/ingest-text.js';
import {
  answerFromContext,
  buildQueryContext,
  DEFAULT_CONTEXT_TOKENS,
  MAX_CONTEXT_TOKENS,
  MAX_QUESTION_CHARS,
  MIN_CONTEXT_TOKENS,
} from '../../../query/ask.js';
import { refOut } from '../../mcp/schemas.js';
import { isSmallTalk, routeMessage, SMALL_TALK_REPLY } from '../../../query/chat-route.js';
import { memoryCards } from '../../../query/memory-cards.js';
import type { HttpDeps } from '../deps.js';
import { defineRoute, iso, readOnlyError, type Route } from '../route.js';

const timeFormat = z
  .enum(['auto', 'semantic', 'absolute', 'hybrid'])
  .default('auto')
  .describe('how times are written in the context');

export const chatRoutes: Route[] = [
  defineRoute({
    method: 'post',
    path: '/api/ask',
    summary:
      'Answer a question with sources (the same as pie ask): with the configured model, else the compiled context',
    tag: 'chat',
    body: z.object({
      question: z.string().trim().min(1, { error: 'ask something in words' }).max(MAX_QUESTION_CHARS),
      time_format: timeFormat,
      context_only: z.boolean().default(false).describe('do not call a model; return the compiled context'),
      context_tokens: z
        .number()
        .int()
        .min(MIN_CONTEXT_TOKENS)
        .max(MAX_CONTEXT_TOKENS)
        .default(DEFAULT_CONTEXT_TOKENS)
        .describe('the most tokens the compiled context may have; it is filled with evidence up to that size'),
    }),
    handler: ({ body, deps }) =>
      ask({
        deps,
        question: body.question,
        format: body.time_format,
        contextOnly: body.context_only,
        maxTokens: body.context_tokens,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/episodes',
    summary:
      'Store a text as an episode and extract it (the same as ingest_episode); the same text twice is one episode',
    tag: 'chat',
    write: true,
    body: z.object({
      content: z.string().trim().min(1, { error: 'send the text to remember' }).max(MAX_EPISODE_CHARS),
      source: z.string().trim().min(1).max(100).default('web'),
    }),
    handler: async ({ body, deps }) => ingestOut(await remember({ deps, content: body.content, source: body.source })),
  }),
  defineRoute({
    method: 'post',
    path: '/api/chat',
    summary:
      'A chat message: a question is answered with sources, a statement is stored as an episode (mode overrides the routing)',
    tag: 'chat',
    body: z.object({
      message: z.string().trim().min(1, { error: 'the message is empty' }).max(MAX_EPISODE_CHARS),
      mode: z.enum(['auto', 'question', 'statement']).default('auto'),
    }),
    handler: async ({ body, deps }) => {
      // "Hi", "thanks!": answered, never stored (the rule pie chat uses).
      if (body.mode === 'auto' && isSmallTalk(body.message))
        return { route: 'small-talk' as const, text: SMALL_TALK_REPLY };
      const route = body.mode === 'auto' ? routeMessage(body.message) : body.mode;
      if (route === 'question') {
        if (body.message.length > MAX_QUESTION_CHARS) {
          throw new PieError('INVALID_ARGUMENT', `A question must be under ${MAX_QUESTION_CHARS} characters.`);
        }
        return { route, ...(await ask({ deps, question: body.message, format: 'auto', contextOnly: false })) };
      }
      return { route, ...ingestOut(await remember({ deps, content: body.message, source: 'web-chat' })) };
    },
  }),
];

async function ask(input: {
  deps: HttpDeps;
  question: string;
  format: 'auto' | 'semantic' | 'absolute' | 'hybrid';
  contextOnly: boolean;
  maxTokens?: number;
}) {
  const { deps, question } = input;
  const model = input.contextOnly ? null : await deps.queryModel();
  const now = deps.clock.now();
  const context = await buildQueryContext({
    store: deps.store,
    question,
    now,
    tz: deps.tz,
    format: input.format,
    client: model?.client ?? null,
    embedder: deps.embedder,
    recordAccess: !deps.readOnly,
    maxTokens: input.maxTokens ?? DEFAULT_CONTEXT_TOKENS,
    ...(deps.tokenizer ? { tokenizer: deps.tokenizer } : {}),
    onWarning: deps.log,
  });
  const answer = model ? await answerFromContext({ client: model.client, question, context, now, tz: deps.tz }) : null;
  return {
    question,
    answer: answer ? { text: answer.text, model: model?.description ?? answer.model, cached: answer.cached } : null,
    context: context.text,
    /** Without a model: the entity cards and changes the context is made of, and its sources. */
    memory: answer ? null : memoryCards(context, deps.tz),
    contextTokens: context.tokens,
    intent: context.plan.intent,
    timeFormat: context.plan.timeFormat,
    entities: context.subgraph.entities.map((b) => refOut(b.entity)),
    sources: context.sources.map((s) => ({ n: s.n, episodeId: s.episodeId, title: s.title, time: iso(s.time) })),
  };
}

async function remember(input: { deps: HttpDeps; content: string; source: string }): Promise<TextIngestResult> {
  const { deps } = input;
  if (deps.readOnly || !deps.extraction) throw readOnlyError();
  const result = await ingestText({
    store: deps.store,
    clock: deps.clock,
    tz: deps.tz,
    newId: deps.newId,
    content: input.content,
    source: input.source,
    extraction: await deps.extraction(),
  });
  if (result.outcome === 'failed') deps.log(`extraction of ${result.episodeId} failed: ${result.failure ?? 'unknown'}`);
  return result;
}

function ingestOut(r: TextIngestResult) {
  return {
    episodeId: r.episodeId,
    outcome: r.outcome,
    title: r.title,
    time: iso(r.time),
    extractor: r.extractor,
    failure: r.failure,
    counts: r.mutations,
    entities: r.entities,
    changes: r.changes,
  };
}
