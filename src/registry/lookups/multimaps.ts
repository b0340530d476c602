/** Maps from a key to several values, as the authorization index keeps them for millions of keys. */

/** Adds `value` to the set under `key`, making the set when it is the first. */
export function addToSetOf<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let values = map.get(key);
  if (!values) map.set(key, (values = new Set()));
  values.add(value);
}

/** Deletes `value` from the set under `key`, and the set once it is empty. */
export function deleteFromSetOf<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const values = map.get(key);
  values?.delete(value);
  if (values?.size === 0) map.delete(key);
}

/** A key's value, or its values when it has several (rare): a list for every key would cost one array each. */
export type OneOrMany<V> = V | V[];

/** Adds `value` under `key` unless it is there. */
export function addOneOrMany<K, V>(map: Map<K, OneOrMany<V>>, key: K, value: V): void {
  const known = map.get(key);
  if (known === undefined) map.set(key, value);
  else if (Array.isArray(known)) {
    if (!known.includes(value)) known.push(value);
  } else if (known !== value) map.set(key, [known as V, value]);
}

/** Keeps the values under `key` that pass `keep` (the key goes when none does), and answers them. */
export function keepOneOrMany<K, V>(map: Map<K, OneOrMany<V>>, key: K, keep: (value: V) => boolean): V[] {
  const known = map.get(key);
  const rest = (Array.isArray(known) ? known : known === undefined ? [] : [known as V]).filter(keep);
  if (rest.length > 1) map.set(key, rest);
  else if (rest.length === 1) map.set(key, rest[0]!);
  else map.delete(key);
  return rest;
}
