/** Text embeddings. Optional: without an embedder, vector lanes and the embedding resolution layer are skipped. */
export interface Embedder {
  /** Vectors are tagged with this name so a model change can re-index. */
  readonly model: string;
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<number[][]>;
}
