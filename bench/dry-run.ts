import { createTiktokenTokenizer } from '../src/adapters/tokenizer/tiktoken.js';
import { runPieOk, type PieRun } from './child.js';
import { exportTextStats, type ExportTextStats } from './export-stats.js';
import { parseDryRunJson, type DryRunJson } from './ingest-json.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { probeTokenizer, type ProbeRow } from './tokenizer-probe.js';
import { ensureSpecExport, freshDb, NO_MODEL_ENV } from './workspace.js';

/** The spec's estimate for the same history, its size in tokens, and the token target (issue: extraction). */
const SPEC_TOKENS = 57_000_000;
const SPEC_COST = '$350–500';
const SPEC_HISTORY_TOKENS = 16_000_000;
const TARGET_INPUT_TOKENS = 20_000_000;
/** DEFAULT_CLIP_ASSISTANT_CHARS of src/extract/llm/render.ts. */
const CLIP_ASSISTANT_CHARS = 2_000;
const PROBE_CHARS = 100_000;

const m = (n: number): string => `${(n / 1e6).toFixed(2)}M`;

/**
 * `npm run bench -- dry-run`: `pie ingest <spec-scale export> --dry-run --json` into an empty database. No model is
 * called: every daily batch's extraction prompt is rendered and counted with js-tiktoken (o200k_base), then priced
 * for the default model, openai:gpt-5-mini. Then, in this process, the export's own text is counted with the same
 * tokenizer (to split the prompt into conversation text and overhead) and the tokenizer's known slow case is probed.
 */
export async function benchDryRun(): Promise<void> {
  const { path } = await ensureSpecExport();
  const db = freshDb({ name: 'dry-run-bench' });
  console.log('Dry run of the spec-scale export (one to two minutes)…');
  const run = await runPieOk({
    args: ['--db', db, '--json', '--tz', 'UTC', 'ingest', path, '--dry-run'],
    env: NO_MODEL_ENV,
  });
  const dry = parseDryRunJson({ stdout: run.stdout }).extraction;
  console.log(`${dry.batches.length} batches, ${m(dry.inputTokens)} input tokens, ${(run.wallMs / 1000).toFixed(1)} s`);
  console.log("Counting the export's own text (about a minute)…");
  const tokenizer = createTiktokenTokenizer();
  const text = exportTextStats({ path, clipChars: CLIP_ASSISTANT_CHARS, count: (s) => tokenizer.count(s) });
  const probe = probeTokenizer({ chars: PROBE_CHARS });
  writeSection({ name: 'dry-run', markdown: render({ dry, run, text, probe }) });
}

function render(input: {
  dry: DryRunJson['extraction'];
  run: PieRun;
  text: ExportTextStats;
  probe: ProbeRow[];
}): string {
  const { dry, run, text, probe } = input;
  const batches = dry.batches.length;
  const cost = dry.cost.input.usd + dry.cost.output.usd;
  const seconds = run.wallMs / 1000;
  const model = `${dry.model.provider}:${dry.model.model}`;
  const exportTokens = text.userTokens + text.assistantTokens;
  const sent = text.userTokens + text.assistantTokensClipped;
  const overhead = dry.inputTokens - sent;
  const projected = overhead + (sent * SPEC_HISTORY_TOKENS) / exportTokens;
  const proseMs = probe[0]?.ms ?? Number.NaN;
  const verdict = dry.inputTokens <= TARGET_INPUT_TOKENS && projected <= TARGET_INPUT_TOKENS ? 'met' : 'MISSED';
  return [
    '## Dry run at spec scale (extraction plan, exact prompt tokens, cost)',
    '',
    `Command: \`npm run bench -- dry-run\`, which runs \`pie --tz UTC --json ingest <spec-scale export> --dry-run\` ` +
      `(the built CLI as a child process, empty database, no model configured, so the plan is priced for the ` +
      `default ${model}). No model is called: each daily batch's extract-batch prompt (instructions, preamble, ` +
      `conversations with assistant replies clipped to ${CLIP_ASSISTANT_CHARS} characters; user turns are never ` +
      `clipped) is rendered and counted with js-tiktoken (o200k_base), plus the JSON Schema and 4 tokens a message. ` +
      `${machineLine()}.`,
    '',
    mdTable(
      [
        'batches',
        'days',
        'conversations',
        'input tokens',
        'output tokens (guess)',
        'est. cost',
        'wall s',
        'peak RSS MB',
      ],
      [
        [
          String(batches),
          String(dry.days),
          String(dry.episodes),
          m(dry.inputTokens),
          m(dry.outputTokensGuess),
          `$${dry.cost.input.usd.toFixed(2)} in + $${dry.cost.output.usd.toFixed(2)} out = $${cost.toFixed(2)}`,
          seconds.toFixed(1),
          run.maxRssMb.toFixed(0),
        ],
      ],
    ),
    '',
    `Per conversation ${Math.round(dry.inputTokens / dry.episodes)} input tokens, per batch ` +
      `${Math.round(dry.inputTokens / batches)}; ${(dry.inputTokens / seconds / 1000).toFixed(0)}k prompt tokens ` +
      `counted a second of wall time (the whole process: import check, planning, preambles, rendering, counting).`,
    '',
    `Where the tokens go (the export's text counted with the same tokenizer, in the benchmark process): user turns ` +
      `${m(text.userTokens)}, all sent; assistant replies ${m(text.assistantTokens)}, ${m(text.assistantTokensClipped)} ` +
      `after clipping (${text.assistantTurnsClipped} of ${text.assistantTurns} replies are clipped). Conversation text ` +
      `sent: ${m(sent)}; the rest, ${m(overhead)} (${Math.round(overhead / batches)} a batch), is instructions, ` +
      `preamble, schema and headers. Note that the synthetic text tokenizes at ` +
      `${((text.userChars + text.assistantChars) / exportTokens).toFixed(1)} characters a token, so the export is ` +
      `${m(exportTokens)} o200k tokens, not the ${m(SPEC_HISTORY_TOKENS)} of the spec's history it imitates ` +
      `(${((text.userChars + text.assistantChars) / 1e6).toFixed(0)}M characters, generated at ~4 a token).`,
    '',
    `Against the spec: its estimate for 4,758 conversations was ~${SPEC_TOKENS / 1e6}M tokens and ${SPEC_COST}. ` +
      `This plan: ${m(dry.inputTokens)} input tokens (${((100 * dry.inputTokens) / SPEC_TOKENS).toFixed(0)} % of it), ` +
      `an estimated $${cost.toFixed(2)} with ${model}. Scaling the conversation text to a history of ` +
      `${m(SPEC_HISTORY_TOKENS)} real tokens with the same shape (same characters per reply, so the same clipping; ` +
      `same batches, so the same overhead) gives about ${m(projected)} input tokens. Target ≤ ` +
      `${TARGET_INPUT_TOKENS / 1e6}M input tokens without dropping user turns: ${verdict}. The output tokens are the ` +
      `dry run's guess (300 + 150 a conversation + 8 % of the prompt, per batch); reasoning models spend more.`,
    '',
    `Known risk, text without spaces: the synthetic export is prose and does not hit it. Measured apart ` +
      `(in-process, ${PROBE_CHARS.toLocaleString('en-US')} characters of each kind, with the project's tokenizer, ` +
      `which counts runs of more than 200 non-space characters in pieces):`,
    '',
    mdTable(
      ['text', 'tokens', 'ms', 'vs prose'],
      probe.map((r) => [r.text, String(r.tokens), r.ms.toFixed(0), `${(r.ms / proseMs).toFixed(0)}×`]),
    ),
  ].join('\n');
}
