// Name references in a native Kustomize build: once every object has its final name, fields that name another object
// (a ConfigMap in a volume, a Service in an Ingress backend) are rewritten (api/filters/nameref), choosing the
// referral as Kustomize does when several objects once had that name.

import { phrase } from '../l10n/l10n';
import { gvkSelected, nameReferences, type Gvk, type NameReference } from './fieldSpecs';
import { entry, get, scalar, set, str, type KNode, type Src } from './tree';
import { Stop, type Res } from './buildContext';
import { curId, effectiveNs, gvkOf, idText, isClusterScoped, nameOf, namespaceOf, orgId } from './identity';
import { visitField } from './transformers';

function sameEndingSubSlice(a: readonly string[], b: readonly string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  for (let i = 1; i <= short.length; i++) if (short[short.length - i] !== long[long.length - i]) return false;
  return true;
}

function prefixSuffixEquals(r: Res, o: Res, allowEmpty: boolean): boolean {
  if (allowEmpty) {
    const pe = !r.prefixes.length || !o.prefixes.length;
    const se = !r.suffixes.length || !o.suffixes.length;
    return (pe || sameEndingSubSlice(r.prefixes, o.prefixes)) && (se || sameEndingSubSlice(r.suffixes, o.suffixes));
  }
  return sameEndingSubSlice(r.prefixes, o.prefixes) && sameEndingSubSlice(r.suffixes, o.suffixes);
}

function selectReferral(
  referrer: Res,
  oldName: string,
  candidates: readonly Res[],
  referral: NameRefTarget,
  roleRef: Gvk | undefined,
  withNs: boolean,
): Res | undefined {
  let c = candidates.filter((r) => r.prevIds.some((id) => id.name === oldName));
  c = c.filter((r) => r.prevIds.some((id) => gvkSelected(id.gvk, referral)));
  if (roleRef) c = c.filter((r) => r.prevIds.some((id) => gvkSelected(id.gvk, roleRef)));
  const refCur = curId(referrer);
  if (!isClusterScoped(refCur.gvk))
    c = c.filter((r) => {
      const id = curId(r);
      return isClusterScoped(id.gvk) || id.gvk.kind === 'ServiceAccount' || effectiveNs(id) === effectiveNs(refCur);
    });
  if (c.length === 1) return c[0];
  c = c.filter((r) => prefixSuffixEquals(r, referrer, true));
  if (c.length > 1) c = c.filter((r) => prefixSuffixEquals(r, referrer, false));
  if (c.length === 1) return c[0];
  if (!c.length) return undefined;
  const first = c[0];
  const same = c.every((r) => nameOf(r.node) === nameOf(first.node) && (!withNs || namespaceOf(r.node) === namespaceOf(first.node)));
  if (same) return first;
  throw new Stop(
    referrer.docSrc?.uri ?? '',
    referrer.docSrc?.span ?? { start: 0, end: 0 },
    phrase("found multiple possible referrals for '{0}': {1}", oldName, c.map((r) => idText(curId(r))).join(', ')),
  );
}

type NameRefTarget = { group?: string; version?: string; kind: string };

export function fixNameReferences(ra: readonly Res[], refs: readonly NameReference[] = nameReferences): void {
  // names are rewritten here, never apiVersion or kind: each object's type is read once
  const gvks = new Map(ra.map((r) => [r, gvkOf(r.node)]));
  for (const ref of refs) {
    const candidates = ra.filter((r) => r.prevIds.length > 0 || gvkSelected(gvks.get(r)!, ref.referral));
    for (const referrer of ra) {
      const gvk = gvks.get(referrer)!;
      for (const spec of ref.fields) {
        if (!gvkSelected(gvk, spec)) continue;
        let roleRef: Gvk | undefined;
        if (spec.path.join('/').endsWith('roleRef/name')) {
          const rr = get(referrer.node, 'roleRef');
          const apiGroup = str(get(rr, 'apiGroup'));
          const kind = str(get(rr, 'kind'));
          if (kind) roleRef = { group: apiGroup ?? '', version: '', kind };
        }
        visitField(referrer.node, spec.path, false, { uri: '', span: { start: 0, end: 0 } }, (parent, key) => {
          const e = entry(parent, key);
          if (!e) return;
          const fix = (n: KNode): KNode => {
            if (n.t === 's') {
              const old = str(n);
              if (old === undefined) return n;
              const target = selectReferral(referrer, old, candidates, ref.referral, roleRef, false);
              if (!target || nameOf(target.node) === old) return n;
              return scalar(nameOf(target.node), viaOf(target, n.src));
            }
            if (n.t === 'm') {
              const nameE = entry(n, 'name');
              // Kustomize's name reference filter refuses a map without a name (setMapping: a configuration error)
              if (!nameE)
                throw new Stop(
                  referrer.docSrc?.uri ?? '',
                  referrer.docSrc?.span ?? { start: 0, end: 0 },
                  phrase(
                    "updating name reference in '{0}' field of '{1}': path config error; no 'name' field in node",
                    spec.path.join('/'),
                    idText(curId(referrer)),
                  ),
                );
              const old = str(nameE.v);
              if (old === undefined) return n;
              let cands = candidates;
              const nsNode = get(n, 'namespace');
              if (nsNode) {
                // Kustomize groups the candidates by effective namespace ('' is 'default'; cluster-scoped ones never match).
                const ns = str(nsNode) ?? '';
                const byOrg = candidates.filter((r) => !isClusterScoped(orgId(r).gvk) && effectiveNs(orgId(r)) === ns);
                cands = byOrg.length ? byOrg : candidates.filter((r) => !isClusterScoped(curId(r).gvk) && effectiveNs(curId(r)) === ns);
              }
              const target = selectReferral(referrer, old, cands, ref.referral, roleRef, true);
              if (!target) return n;
              if (nameOf(target.node) === old && namespaceOf(target.node) === '') return n;
              nameE.v = scalar(nameOf(target.node), viaOf(target, nameE.v.src));
              if (namespaceOf(target.node)) set(n, 'namespace', scalar(namespaceOf(target.node), viaOf(target, nsNode?.src, 'namespace')));
              return n;
            }
            if (n.t === 'q') n.items = n.items.map(fix);
            return n;
          };
          e.v = fix(e.v);
        });
      }
    }
  }
}

/** A rewritten reference comes from the referrer's field, changed by the setting that renamed the referral. */
function viaOf(target: Res, fieldSrc: Src | undefined, field: 'name' | 'namespace' = 'name'): Src | undefined {
  const made = get(get(target.node, 'metadata'), field)?.src;
  if (fieldSrc) return { uri: fieldSrc.uri, span: fieldSrc.span, via: made?.via ?? 'name reference' };
  return made;
}
