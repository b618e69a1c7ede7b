import type { Config } from '../../config/config.js';
import type { Services } from '../../compose.js';
import type { CliIo } from './io.js';

/** What every command receives. Services (the database) open on first use and close when the command ends. */
export interface CommandContext {
  io: CliIo;
  config: Config;
  /**
   * `absentIsEmpty`: a SQLite file that does not exist yet is opened as an empty memory in memory, so a command that
   * promises to write nothing (a dry run) does not create it. `existing`: a SQLite file that does not exist yet is
   * refused with one sentence (exit 3) instead of created, for commands that only read or change what a memory holds
   * (a mistyped --db must not leave an empty memory behind and report success on it). A PostgreSQL memory is a schema
   * on a server: opening it creates nothing a person would have to clean up, so it is never refused.
   */
  services(options?: { readonly?: boolean; absentIsEmpty?: boolean; existing?: boolean }): Promise<Services>;
  /** Writes the human text (nothing when it is empty), or with --json the JSON document, to stdout. */
  emit(input: { text: string; json: unknown }): void;
}

export function emitter(io: CliIo, json: boolean): CommandContext['emit'] {
  return ({ text, json: doc }) => {
    if (json) io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    else if (text !== '') io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  };
}
