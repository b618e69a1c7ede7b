import type { JsonObject, JsonValue } from './ast.js';

/** Deep equality of JSON values (object key order ignored). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (typeof a === 'object') {
    if (typeof b !== 'object' || Array.isArray(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** A stable string for grouping and de-duplicating JSON values (sorted object keys). */
export function jsonKey(value: JsonValue | undefined): string {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonKey).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${jsonKey(value[k])}`)
    .join(',')}}`;
}

/** ISO-8601 UTC with milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A shallow copy without the listed keys. */
export function without(object: JsonObject, keys: Iterable<string>): JsonObject {
  const out: JsonObject = { ...object };
  for (const k of keys) delete out[k];
  return out;
}

/** Keys starting with "_" are engine-maintained (spec §1.8). */
export function isReservedKey(key: string): boolean {
  return key.startsWith('_');
}

export function withoutReserved(object: JsonObject): JsonObject {
  return without(
    object,
    Object.keys(object).filter((k) => isReservedKey(k)),
  );
}

/** Converts unknown data (read back from storage) to a JSON value, dropping what JSON cannot hold. */
export function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = toJson(v);
    return out;
  }
  return null;
}

export function toJsonObject(value: unknown): JsonObject {
  const j = toJson(value);
  return isPlainObject(j) ? j : {};
}
