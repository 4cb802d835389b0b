// The order of a native Kustomize build's output: as loaded, or Kustomize's legacy kind order when the kustomization
// asks for it (sortOptions: legacy; api/resource orderFirst/orderLast).

import { phrase } from '../l10n/l10n';
import { orderFirst, orderLast, type Gvk } from './fieldSpecs';
import { get, str } from './tree';
import { Stop, type Id, type Kust } from './buildContext';
import { listOf } from './generators';
import { gvkEquals } from './identity';
import { keySrc, srcOf } from './load';

interface KindOrder {
  readonly first: readonly string[];
  readonly last: readonly string[];
}

const defaultOrder: KindOrder = { first: orderFirst, last: orderLast };

function typeOrder(kind: string, order: KindOrder): number {
  const f = order.first.indexOf(kind);
  if (f >= 0) return -order.first.length + f;
  const l = order.last.indexOf(kind);
  return l >= 0 ? 1 + l : 0;
}

/**
 * The root kustomization's `sortOptions` (Kustomize reads only the root's): `fifo` keeps the order the objects were
 * loaded in (undefined), `legacy` sorts by kind with `legacySortOptions.orderFirst` / `orderLast` in place of the
 * default kind lists when given.
 */
export function sortOrderOf(k: Kust): KindOrder | undefined {
  const options = get(k.node, 'sortOptions');
  if (!options || options.t !== 'm') return defaultOrder;
  const at = keySrc(k, 'sortOptions');
  const order = str(get(options, 'order'));
  if (order === 'fifo') return undefined;
  if (order !== undefined && order !== 'legacy')
    throw new Stop(k.uri, srcOf(get(options, 'order'), at).span, phrase("sortOptions order must be legacy or fifo, not '{0}'", order));
  const legacy = get(options, 'legacySortOptions');
  if (!legacy || legacy.t !== 'm') return defaultOrder;
  const kinds = (key: string) => listOf(k, legacy, key, at).map((e) => e.value);
  return { first: kinds('orderFirst'), last: kinds('orderLast') };
}

function gvkSortString(g: Gvk): string {
  return [g.group || '~G', g.version || '~V', g.kind || '~K'].join('_');
}

function gvkString(g: Gvk): string {
  return [g.kind || '~K', g.version || '~V', g.group || '~G'].join('_');
}

export function legacyLess(a: Id, b: Id, order: KindOrder): number {
  if (!gvkEquals(a.gvk, b.gvk)) {
    const ia = typeOrder(a.gvk.kind, order);
    const ib = typeOrder(b.gvk.kind, order);
    if (ia !== ib) return ia - ib;
    const sa = gvkSortString(a.gvk);
    const sb = gvkSortString(b.gvk);
    if (a.gvk.kind === 'Namespace' && b.gvk.kind === 'Namespace' && (a.gvk.group === '' || b.gvk.group === '')) return sa > sb ? -1 : sa < sb ? 1 : 0;
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  const ka = [gvkString(a.gvk), a.namespace || '~X', a.name || '~N'].join('|');
  const kb = [gvkString(b.gvk), b.namespace || '~X', b.name || '~N'].join('|');
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
