import type { Config } from '../../config/config.js';
import type { Services } from '../../compose.js';
import type { CliIo } from './io.js';

/** What every command receives. Services (the database) open on first use and close when the command ends. */
export interface CommandContext {
  io: CliIo;
  config: Config;
  /**
   * `absentIsEmpty`: a SQLite file that does not exist yet is opened as an empty memory in memory, so a command that
   * promises to write nothing (a dry run) does not create it.
   */
  services(options?: { readonly?: boolean; absentIsEmpty?: boolean }): Promise<Services>;
  /** Writes the human text, or with --json the JSON document, to stdout. */
  emit(input: { text: string; json: unknown }): void;
}

export function emitter(io: CliIo, json: boolean): CommandContext['emit'] {
  return ({ text, json: doc }) => {
    if (json) io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    else io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  };
}
