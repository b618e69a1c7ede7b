import type { Command } from 'commander';
import { changeDatabaseKey, databaseIsEncrypted } from '../../../compose.js';
import { databaseKey, readKeyFile } from '../../../config/config.js';
import { PieError } from '../../../domain/errors.js';
import type { CommandContext } from '../context.js';
import { num } from '../format.js';
import type { ActionRunner } from '../run.js';

const KEY_SOURCES = 'PIE_DB_KEY or PIE_DB_KEY_FILE';

export function registerEncrypt(program: Command, run: ActionRunner): void {
  program
    .command('encrypt')
    .description(
      `encrypt the database with the key in ${KEY_SOURCES} (or change its key with --new-key-file); stop servers first`,
    )
    .option(
      '--new-key-file <file>',
      `re-key an encrypted database: ${KEY_SOURCES} opens it, this file holds the new key`,
    )
    .action((flags: { newKeyFile?: string }) => run((ctx) => encrypt(ctx, flags.newKeyFile)));
  program
    .command('decrypt')
    .description(`write the database back in plain text (${KEY_SOURCES} opens it); stop servers first`)
    .action(() => run((ctx) => decrypt(ctx)));
}

function requireKey(ctx: CommandContext, what: string): string {
  const key = databaseKey(ctx.io.env);
  if (key === undefined) throw new PieError('INVALID_ARGUMENT', `Set ${KEY_SOURCES} to ${what}, then run this again.`);
  return key;
}

async function encrypt(ctx: CommandContext, newKeyFile: string | undefined): Promise<void> {
  const encrypted = databaseIsEncrypted(ctx.config);
  let from: string | undefined;
  let to: string;
  if (newKeyFile !== undefined) {
    if (!encrypted) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `${ctx.config.dbPath} is not encrypted; run pie encrypt with ${KEY_SOURCES} set to the key (no --new-key-file).`,
      );
    }
    from = requireKey(ctx, 'the current key');
    to = readKeyFile(newKeyFile, 'The new key file');
  } else {
    if (encrypted) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `${ctx.config.dbPath} is already encrypted; to change its key, keep ${KEY_SOURCES} on the current key and pass --new-key-file.`,
      );
    }
    to = requireKey(ctx, 'the key to encrypt with');
  }
  const summary = changeDatabaseKey({ config: ctx.config, from, to });
  ctx.emit({
    text:
      `${from === undefined ? 'Encrypted' : 'Re-keyed'} ${summary.path} (${num(summary.rows)} rows in ${summary.tables} tables checked). ` +
      (from === undefined
        ? `Every command now needs ${KEY_SOURCES} set to this key; keep a copy of it: without it the memory cannot be read.`
        : `From now on set ${KEY_SOURCES} to the new key.`),
    json: summary,
  });
}

async function decrypt(ctx: CommandContext): Promise<void> {
  if (!databaseIsEncrypted(ctx.config)) {
    throw new PieError('INVALID_ARGUMENT', `${ctx.config.dbPath} is not encrypted; there is nothing to decrypt.`);
  }
  const from = requireKey(ctx, 'the key that opens it');
  const summary = changeDatabaseKey({ config: ctx.config, from, to: undefined });
  ctx.emit({
    text: `Decrypted ${summary.path} (${num(summary.rows)} rows in ${summary.tables} tables checked); unset ${KEY_SOURCES}.`,
    json: summary,
  });
}
