// Cluster DNS names written inside free text (env values, args, ConfigMap data): `api.shop.svc`, `db-0.db.shop.svc.cluster.local:5432`, in URLs too.

export interface WrittenName {
  /** The name as written, with its `:port` when one follows. */
  readonly text: string;
  readonly host: string;
  readonly port?: number;
  /** Offset of the name in the value. */
  readonly index: number;
}

// Two or more labels before `svc` (`<svc>.<ns>.svc`, `<pod>.<svc>.<ns>.svc`, `_<p>._<proto>.<svc>.<ns>.svc`), then
// optional labels (the zone) and an optional trailing dot and `:port`. The look-behind keeps `$(NS).svc` and
// `${NS}.svc` (expanded at run time) out.
const pattern = /(?<![A-Za-z0-9_.$(){}-])((?:[A-Za-z0-9_](?:[-A-Za-z0-9_]*[A-Za-z0-9_])?\.){2,}svc(?:\.[A-Za-z0-9](?:[-A-Za-z0-9]*[A-Za-z0-9])?)*\.?)(?::(\d{1,5}))?(?![A-Za-z0-9_-])/g;

/** Names that end in `.svc`, or in `.svc.<zone>` for the configured cluster domain; other domains are not the cluster's. */
export function findClusterNames(value: string, zone: string): WrittenName[] {
  const out: WrittenName[] = [];
  for (const m of value.matchAll(pattern)) {
    let host = m[1];
    const lower = host.toLowerCase();
    const svcAt = lower.search(/\.svc(\.|$)/);
    const after = lower.slice(svcAt + 4);
    if (after === '.' && m[2] === undefined) host = host.slice(0, -1); // a sentence-ending dot, not an absolute name
    else if (after !== '' && after !== '.' && after !== `.${zone}` && after !== `.${zone}.`) continue;
    // `x.svc.cluster.local` parses as namespace `x`: not a Service name.
    if (lower.slice(0, svcAt).split('.').length < 2) continue;
    const port = m[2] !== undefined && host === m[1] ? Number(m[2]) : undefined;
    const text = port !== undefined ? `${host}:${m[2]}` : host;
    out.push({ text, host, ...(port !== undefined ? { port } : {}), index: m.index! });
  }
  return out;
}
