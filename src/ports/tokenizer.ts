/** Counts tokens the way the configured model family does (offline; no network). */
export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}
