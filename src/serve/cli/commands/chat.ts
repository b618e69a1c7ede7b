import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { createEmbedderFromEnv, createExtraction, createQueryModel, type Services } from '../../../compose.js';
import { ensurePrivateFile } from '../../../config/private-files.js';
import { errorMessage, isPieError, PieError } from '../../../domain/errors.js';
import { ingestText } from '../../../ingest/ingest-text.js';
import { answerFromContext, buildQueryContext, DEFAULT_CONTEXT_TOKENS, type QueryContext } from '../../../query/ask.js';
import { isSmallTalk, routeMessage, SMALL_TALK_REPLY, type ChatRoute } from '../../../query/chat-route.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';
import { backup } from './backup.js';
import { CHAT_HELP, memoryCards, sourcesText, storedText } from './chat-view.js';
import { diff } from './history.js';
import { sleep, undo } from './sleep.js';
import { timeline } from './world.js';

const HISTORY_SIZE = 500;
const PROMPT = 'you › ';

interface ChatFlags {
  llm?: string;
}

export function registerChat(program: Command, run: ActionRunner): void {
  program
    .command('chat')
    .description(
      'talk with your memory: a question is answered from it, anything else is remembered (the route is shown; /help lists commands). With --json, one JSON message a line in, one JSON reply a line out',
    )
    .option('--llm <provider:model>', 'model for answers and extraction (default $PIE_LLM, else an API key)')
    .action((flags: ChatFlags) => run((ctx) => chat(ctx, flags)));
}

/** One exchange's outcome, printed as text or (with --json) as one JSON line. */
type Reply =
  | { route: 'question'; answer: string | null; model: string | null; context: QueryContext; streamed: boolean }
  | { route: 'statement'; stored: Awaited<ReturnType<typeof ingestText>> }
  | { route: 'small-talk'; text: string }
  | { route: 'command'; text: string };

async function chat(ctx: CommandContext, flags: ChatFlags): Promise<void> {
  const services = await ctx.services();
  const json = ctx.config.json;
  const tty = Boolean(process.stdin.isTTY) && !json;
  const historyFile = ctx.config.dbPath === ':memory:' ? null : join(dirname(ctx.config.dbPath), 'chat-history');
  const rl = createInterface({
    input: process.stdin,
    output: tty ? process.stdout : undefined,
    terminal: tty,
    historySize: HISTORY_SIZE,
    history: tty && historyFile ? loadHistory(historyFile) : [],
    prompt: PROMPT,
  } as Parameters<typeof createInterface>[0]);
  const state: ChatState = { last: null, lastContext: null, model: undefined };
  if (tty) {
    ctx.io.stdout(
      `PIE chat on ${ctx.config.dbPath}. Ask about your history, or tell it something to remember. /help lists commands; Ctrl-D leaves.\n`,
    );
    rl.on('SIGINT', () => {
      // Ctrl-C clears the line being typed; on an empty line it says how to leave.
      if ((rl as unknown as { line: string }).line === '') ctx.io.stdout('\n(Ctrl-D or /quit leaves)\n');
      else ctx.io.stdout('^C\n');
      rl.write(null, { ctrl: true, name: 'u' });
      rl.prompt();
    });
    rl.prompt();
  }
  const sub = commandContext(ctx);
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === '') {
      if (tty) rl.prompt();
      continue;
    }
    if (line === '/quit' || line === '/exit') break;
    try {
      const reply = json ? await jsonTurn({ services, ctx, flags, state, line, sub }) : await textTurn(line);
      if (reply)
        ctx.io.stdout(json ? `${JSON.stringify(jsonOf(reply, ctx.config.tz))}\n` : `${textOf(reply, ctx.config.tz)}\n`);
    } catch (error) {
      if (!isPieError(error)) throw error;
      ctx.io.stdout(
        json
          ? `${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`
          : `pie: ${error.message}\n`,
      );
    }
    if (tty) rl.prompt();
  }
  rl.close();
  if (tty && historyFile) saveHistory(historyFile, (rl as unknown as { history: string[] }).history);

  async function textTurn(text: string): Promise<Reply | null> {
    // A model's answer is printed as it arrives; the route label goes first.
    let started = false;
    const onText = (delta: string): void => {
      if (!started) ctx.io.stdout('[asked] ');
      started = true;
      ctx.io.stdout(delta);
    };
    if (text.startsWith('/')) return slash({ services, ctx, flags, state, line: text, sub, onText });
    return exchange({ services, ctx, flags, state, sub, message: text, mode: 'auto', onText });
  }
}

interface ChatState {
  /** The last message and the route it took (for /other). */
  last: { message: string; route: ChatRoute } | null;
  lastContext: QueryContext | null;
  /** The answering model, once looked up (null: none configured). */
  model: Awaited<ReturnType<typeof createQueryModel>> | undefined;
  extraction?: Awaited<ReturnType<typeof createExtraction>>;
}

interface TurnInput {
  services: Services;
  ctx: CommandContext;
  flags: ChatFlags;
  state: ChatState;
  sub: CommandContext;
  /** Text mode: the answer is streamed through this. */
  onText?: (delta: string) => void;
}

async function exchange(input: TurnInput & { message: string; mode: 'auto' | ChatRoute }): Promise<Reply> {
  const { services, ctx, state, message } = input;
  if (input.mode === 'auto' && isSmallTalk(message)) {
    return {
      route: 'small-talk',
      text: SMALL_TALK_REPLY,
    };
  }
  const route = input.mode === 'auto' ? routeMessage(message) : input.mode;
  state.last = { message, route };
  if (route === 'question') {
    if (state.model === undefined) state.model = await createQueryModel({ services, llm: input.flags.llm });
    const now = services.clock.now();
    const context = await buildQueryContext({
      store: services.store,
      question: message,
      now,
      tz: ctx.config.tz,
      format: 'auto',
      client: state.model?.client ?? null,
      embedder: createEmbedderFromEnv(services.env),
      recordAccess: true,
      maxTokens: DEFAULT_CONTEXT_TOKENS,
      tokenizer: services.tokenizer(),
    });
    state.lastContext = context;
    const answer = state.model
      ? await answerFromContext({
          client: state.model.client,
          question: message,
          context,
          now,
          tz: ctx.config.tz,
          ...(input.onText ? { onText: input.onText } : {}),
        })
      : null;
    return {
      route,
      answer: answer?.text ?? null,
      model: state.model?.description ?? null,
      context,
      streamed: answer !== null && input.onText !== undefined,
    };
  }
  state.extraction ??= await createExtraction({ services, choice: 'auto', llm: input.flags.llm });
  const extraction = state.extraction;
  const stored = await ingestText({
    store: services.store,
    clock: services.clock,
    tz: ctx.config.tz,
    newId: services.newId,
    content: message,
    source: 'pie-chat',
    extraction,
  });
  return { route, stored };
}

async function slash(input: TurnInput & { line: string }): Promise<Reply | null> {
  const { state, sub } = input;
  const [command = '', ...rest] = input.line.slice(1).split(/\s+/);
  const arg = input.line.slice(1 + command.length).trim();
  const done = (text: string): Reply => ({ route: 'command', text });
  switch (command.toLowerCase()) {
    case 'help':
      return done(CHAT_HELP);
    case 'ask':
    case 'remember':
      if (arg === '') throw new PieError('INVALID_ARGUMENT', `Give the text after /${command}.`);
      return exchange({ ...input, message: arg, mode: command === 'ask' ? 'question' : 'statement' });
    case 'other': {
      if (!state.last) throw new PieError('INVALID_ARGUMENT', 'There is no message yet to take the other way.');
      const other: ChatRoute = state.last.route === 'question' ? 'statement' : 'question';
      return exchange({ ...input, message: state.last.message, mode: other });
    }
    case 'why':
      if (!state.lastContext) throw new PieError('INVALID_ARGUMENT', 'No question was answered yet.');
      return done(
        state.lastContext.sources.length > 0
          ? sourcesText(state.lastContext, input.ctx.config.tz, 20)
          : 'The last answer had no source conversation (it came from the world model alone).',
      );
    case 'context':
      if (!state.lastContext) throw new PieError('INVALID_ARGUMENT', 'No question was answered yet.');
      return done(state.lastContext.text);
    case 'timeline':
      if (arg === '') throw new PieError('INVALID_ARGUMENT', 'Give a name: /timeline Tidepool.');
      await timeline(sub, arg);
      return null;
    case 'diff': {
      const [a, b] = rest;
      if (!a || !b) throw new PieError('INVALID_ARGUMENT', 'Give two periods or dates: /diff 2024-01-01 now.');
      await diff(sub, a, b, { limit: '20', timeFormat: 'hybrid' });
      return null;
    }
    case 'sleep': {
      const apply = rest[0] === 'apply';
      const scope = (apply ? rest[1] : rest[0]) ?? 'full';
      await sleep(sub, { scope, dryRun: !apply, ...(input.flags.llm ? { llm: input.flags.llm } : {}) });
      if (!apply) input.ctx.io.stdout(`(a preview: /sleep apply ${scope} runs it)\n`);
      return null;
    }
    case 'consolidate':
      await sleep(sub, { scope: 'daydream', dryRun: false });
      return null;
    case 'undo': {
      const last = (await input.services.store.maintenance.list(20)).find(
        (e) => e.status === 'completed' && e.kind === 'sleep',
      );
      if (!last) throw new PieError('NOT_FOUND', 'There is no completed sleep to undo.');
      await undo(sub, last.id, false);
      return null;
    }
    case 'backup':
      if (arg === '') throw new PieError('INVALID_ARGUMENT', 'Give a file: /backup ~/pie-backup.jsonl.gz.');
      await backup(sub, arg, { includeLlmCache: false });
      return null;
    default:
      throw new PieError('INVALID_ARGUMENT', `/${command} is not a command; /help lists them.`);
  }
}

/** --json: each line is {"message": "…", "mode"?: "auto" | "question" | "statement"} or a slash command string. */
async function jsonTurn(input: TurnInput & { line: string }): Promise<Reply | null> {
  let value: unknown;
  try {
    value = JSON.parse(input.line);
  } catch {
    throw new PieError('INVALID_ARGUMENT', 'Each line must be a JSON object like {"message": "…"}.');
  }
  const message = (value as { message?: unknown } | null)?.message;
  const mode = (value as { mode?: unknown } | null)?.mode ?? 'auto';
  if (
    typeof message !== 'string' ||
    message.trim() === '' ||
    !['auto', 'question', 'statement'].includes(String(mode))
  ) {
    throw new PieError(
      'INVALID_ARGUMENT',
      'Each line must be {"message": "<text>"} with an optional "mode": "auto", "question" or "statement".',
    );
  }
  if (message.trim().startsWith('/')) return slash({ ...input, line: message.trim() });
  return exchange({ ...input, message: message.trim(), mode: mode as 'auto' | ChatRoute });
}

function textOf(reply: Reply, tz: string): string {
  switch (reply.route) {
    case 'question': {
      const note = reply.answer
        ? `(${reply.model ?? 'model'}; /why for the sources)`
        : '(no model configured: this is what your memory holds about it; /context shows the full context)';
      // A streamed answer is on the screen already: only the line under it is left to print.
      if (reply.streamed) return `\n${note}  /other stores it instead.`;
      const body = reply.answer ?? memoryCards(reply.context, tz);
      return `[asked] ${body}\n${note}  /other stores it instead.`;
    }
    case 'statement':
      return `[remembered] ${storedText(reply.stored)}\n(/other asks it as a question instead.)`;
    case 'small-talk':
    case 'command':
      return reply.text;
  }
}

function jsonOf(reply: Reply, tz: string): Record<string, unknown> {
  switch (reply.route) {
    case 'question':
      return {
        route: 'question',
        answer: reply.answer,
        model: reply.model,
        memory: reply.answer === null ? memoryCards(reply.context, tz) : null,
        sources: reply.context.sources.map((s) => ({ n: s.n, episodeId: s.episodeId, title: s.title })),
        entities: reply.context.subgraph.entities.map((b) => ({ name: b.entity.name, type: b.entity.type })),
      };
    case 'statement':
      return { route: 'statement', ...reply.stored };
    case 'small-talk':
    case 'command':
      return { route: reply.route, text: reply.text };
  }
}

/** The CLI's own commands run inside the chat: same services, their output printed as the chat's. */
function commandContext(ctx: CommandContext): CommandContext {
  return {
    ...ctx,
    emit: ({ text, json }) =>
      ctx.io.stdout(
        ctx.config.json ? `${JSON.stringify({ route: 'command', result: json })}\n` : `${text.replace(/\n$/, '')}\n`,
      ),
  };
}

function loadHistory(file: string): string[] {
  if (!existsSync(file)) return [];
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).reverse().slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function saveHistory(file: string, history: readonly string[]): void {
  try {
    ensurePrivateFile(file);
    writeFileSync(file, `${[...history].reverse().slice(-HISTORY_SIZE).join('\n')}\n`, { mode: 0o600 });
  } catch (error) {
    process.stderr.write(`pie: could not save the chat history (${errorMessage(error)}).\n`);
  }
}
