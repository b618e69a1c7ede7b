/** Adds `value` to the list `map` holds for `key`, starting the list with it when it is the first. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The items by their key, each list in the items' order, the keys in order of first appearance. Pure. */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) pushTo(out, keyOf(item), item);
  return out;
}
