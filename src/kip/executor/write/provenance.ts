import type { JsonObject } from '../../ast.js';
import { KipError } from '../../errors.js';
import { isReservedKey } from '../../values.js';
import type { ExecContext } from '../context.js';

/** What a write records as its origin: the episode named by `metadata.source` (when it is one) and a confidence. */
export interface Provenance {
  episodeId: string | null;
  confidence: number;
}

export async function provenanceOf(ctx: ExecContext, metadata: JsonObject, fallback?: Provenance): Promise<Provenance> {
  const source = metadata['source'];
  let episodeId = fallback?.episodeId ?? null;
  if (typeof source === 'string' && source.length > 0 && (await ctx.store.episodes.get(source))) episodeId = source;
  const c = metadata['confidence'];
  const confidence = typeof c === 'number' && c >= 0 && c <= 1 ? c : (fallback?.confidence ?? 1);
  return { episodeId, confidence };
}

/** KIP_2002 for any reserved (`_`) key a command tries to write. */
export function rejectReserved(keys: Iterable<string>, where: string): void {
  for (const k of keys) {
    if (isReservedKey(k)) {
      throw new KipError(
        'KIP_2002',
        `"${k}" in ${where} is reserved: metadata keys starting with "_" are maintained by the engine.`,
      );
    }
  }
}

/** Metadata precedence (spec §3.1 rule 4): inner overrides outer key by key; a specified null still overrides. */
export function mergeMetadata(...layers: (JsonObject | undefined)[]): JsonObject {
  const out: JsonObject = {};
  for (const layer of layers) if (layer) Object.assign(out, layer);
  return out;
}
