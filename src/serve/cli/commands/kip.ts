import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createEmbedderFromEnv } from '../../../compose.js';
import { PieError } from '../../../domain/errors.js';
import { executeKip, type KipResponse, type KipSingleResponse } from '../../../kip/api.js';
import type { JsonValue } from '../../../kip/ast.js';
import { pieCodeOf, type KipErrorBody } from '../../../kip/errors.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';

interface KipFlags {
  params?: string;
  file?: string;
  dryRun?: boolean;
  readOnly?: boolean;
}

export function registerKip(program: Command, run: ActionRunner): void {
  program
    .command('kip')
    .description(
      'run KIP commands (KQL FIND, KML UPSERT/UPDATE/MERGE/DELETE, META DESCRIBE/SEARCH/EXPORT); see docs/kip.md',
    )
    .argument('[commands...]', 'one or more KIP commands (several run as a batch); "-" reads one from stdin')
    .option('--params <json>', 'values for :name placeholders, as a JSON object')
    .option('--file <path>', 'read the command from a file')
    .option('--dry-run', 'run and report, but keep no change')
    .option('--read-only', 'refuse KML, as the execute_kip_readonly tool does')
    .action((commands: string[], flags: KipFlags) => run((ctx) => kip(ctx, commands, flags)));
}

async function kip(ctx: CommandContext, args: string[], flags: KipFlags): Promise<void> {
  const commands = [...args.map((a) => (a === '-' ? readFileSync(0, 'utf8') : a))];
  if (flags.file) commands.push(readCommandFile(flags.file));
  if (commands.length === 0) {
    throw new PieError(
      'INVALID_ARGUMENT',
      'Give a KIP command, e.g. pie kip \'DESCRIBE PRIMER\' (or --file, or "-" for stdin).',
    );
  }
  const parameters = parseParams(flags.params);
  // A dry run or a read-only call writes nothing: not even a database file that does not exist yet.
  const services = await ctx.services({ absentIsEmpty: flags.dryRun === true || flags.readOnly === true });
  const response = await executeKip({
    store: services.store,
    ...(commands.length === 1 ? { command: commands[0] } : { commands }),
    parameters,
    dryRun: flags.dryRun === true,
    readOnly: flags.readOnly === true,
    clock: services.clock,
    newId: services.newId,
    embedder: createEmbedderFromEnv(services.env),
  });
  const batch = commands.length > 1;
  ctx.emit({ text: render(response, batch, flags.dryRun === true), json: response });
  const error = firstError(response, batch);
  if (error) {
    const hint = error.hint ? ` (hint: ${error.hint})` : '';
    throw new PieError(pieCodeOf(error.code), `${error.code} ${error.message}${hint}`, { details: { kip: error } });
  }
}

function readCommandFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new PieError('FILE_NOT_FOUND', `Cannot read the KIP command file ${path}; check the path.`, { cause: error });
  }
}

function parseParams(text: string | undefined): Record<string, JsonValue> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PieError('INVALID_ARGUMENT', `--params must be a JSON object, e.g. '{"name": "Aspirin"}'.`, {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PieError('INVALID_ARGUMENT', `--params must be a JSON object, e.g. '{"name": "Aspirin"}'.`);
  }
  return parsed as Record<string, JsonValue>;
}

function firstError(response: KipResponse, batch: boolean): KipErrorBody | undefined {
  if ('error' in response) return response.error;
  if (batch) for (const r of response.result as KipSingleResponse[]) if ('error' in r) return r.error;
  return undefined;
}

/** A value printed as it is in a row: a string bare, anything else as JSON. */
const cell = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const scalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * A result in text mode: FIND's rows of plain values one to a line, the values of a row between " | " ("Melanie |
 * owns | Luna"), so a hundred rows are a hundred lines; anything else (nodes, links, META) as indented JSON.
 */
function resultText(result: unknown): string {
  if (Array.isArray(result) && result.length > 0) {
    if (result.every(scalar)) return result.map(cell).join('\n');
    if (result.every((row) => Array.isArray(row) && row.every(scalar)))
      return result.map((row: unknown[]) => row.map(cell).join(' | ')).join('\n');
  }
  return JSON.stringify(result, null, 2);
}

/**
 * Text mode: each result as resultText prints it, with its cursor. A single command's error is reported on stderr by
 * the caller and nothing else is printed; in a batch, a failed command's line says which failed and why (the first
 * failure is also the caller's stderr message and exit status).
 */
function render(response: KipResponse, batch: boolean, dryRun: boolean): string {
  const parts: string[] = [];
  const single = (r: KipSingleResponse, label?: string) => {
    if ('error' in r) {
      if (label !== undefined) parts.push(`${label}error ${r.error.code} ${r.error.message}`);
      return;
    }
    parts.push(`${label ?? ''}${resultText(r.result)}`);
    if (r.next_cursor) parts.push(`next_cursor: ${r.next_cursor}`);
  };
  if (batch && 'result' in response) {
    (response.result as KipSingleResponse[]).forEach((r, i) => single(r, `#${i + 1} `));
  } else {
    single(response as KipSingleResponse);
  }
  if (dryRun) parts.push('(dry run: nothing was kept)');
  return parts.join('\n');
}
