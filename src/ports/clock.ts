/** The reference "now" (epoch ms). `--now` / PIE_NOW fix it; tests use a fixed clock. */
export interface Clock {
  now(): number;
}
