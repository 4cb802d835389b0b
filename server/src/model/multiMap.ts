// Lists kept by key in a Map: the one helper the indexes use to add to them.

/** Appends `v` to the list under `k`, starting the list when there is none. */
export function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}
