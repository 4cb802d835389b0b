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
const pattern =
  /(?<![A-Za-z0-9_.$(){}-])((?:[A-Za-z0-9_](?:[-A-Za-z0-9_]*[A-Za-z0-9_])?\.){2,}svc(?:\.[A-Za-z0-9](?:[-A-Za-z0-9]*[A-Za-z0-9])?)*\.?)(?::(\d{1,5}))?(?![A-Za-z0-9_-])/g;

/** Names that end in `.svc`, or in `.svc.<zone>` for the configured cluster domain; other domains are not the cluster's. */
export function findClusterNames(value: string, zone: string): WrittenName[] {
  const out: WrittenName[] = [];
  for (const m of value.matchAll(pattern)) {
    let host = m[1];
    const lower = host.toLowerCase();
    const svcAt = lower.search(/\.svc(\.|$)/);
    const after = lower.slice(svcAt + 4);
    if (after === '.' && m[2] === undefined)
      host = host.slice(0, -1); // a sentence-ending dot, not an absolute name
    else if (after !== '' && after !== '.' && after !== `.${zone}` && after !== `.${zone}.`) continue;
    // `x.svc.cluster.local` parses as namespace `x`: not a Service name.
    if (lower.slice(0, svcAt).split('.').length < 2) continue;
    const port = m[2] !== undefined && host === m[1] ? Number(m[2]) : undefined;
    const text = port !== undefined ? `${host}:${m[2]}` : host;
    out.push({ text, host, ...(port !== undefined ? { port } : {}), index: m.index! });
  }
  return out;
}

/**
 * How a short name was written: in a URL (`http://orders:8080/`), as `host:port` (`orders:8080`, also in lists), or as
 * the whole value of a variable whose name says it holds a host (`ORDERS_HOST=orders`).
 */
export type ShortForm = 'url' | 'hostport' | 'bare';

export interface ShortName extends WrittenName {
  readonly form: ShortForm;
}

// One to three DNS labels, lower case, the first starting with a letter (`orders`, `orders.shop`, `db-0.db.shop`).
const host = String.raw`[a-z](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?){0,2}`;
const urlPattern = new RegExp(String.raw`(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]*://(?:[^\s/@]*@)?(${host})(?::(\d{1,5}))?(?=[/?#\s,;'")\]]|$)`, 'g');
const hostPortPattern = new RegExp(String.raw`(?<![A-Za-z0-9_.:/@$%{}-])(${host}):(\d{1,5})(?![A-Za-z0-9_.:-])`, 'g');
const barePattern = new RegExp(String.raw`^${host}$`);
/** Variable names that say their value is a host name. */
const hostVariable = /(?:^|_)(?:HOST|HOSTNAME|ADDR|ADDRESS|SERVER|SERVERS|SERVICE|ENDPOINT|BROKER|BROKERS)$/i;
/** Hosts that are never cluster lookups: the pod itself, and names of the resolver's own. */
const notLookups: ReadonlySet<string> = new Set(['localhost', 'ip6-localhost', 'ip6-loopback']);

/**
 * Names without `.svc` that a pod looks up through its search path (semantics §3.2, §9.3): hosts of URLs, `host:port`
 * pairs, and the whole value of a host variable. Names that `findClusterNames` finds are left to it.
 */
export function findShortNames(value: string, variable?: string): ShortName[] {
  const out: ShortName[] = [];
  const taken: [number, number][] = [];
  const add = (name: ShortName): void => {
    if (notLookups.has(name.host) || /\.svc(\.|$)/.test(name.host) || name.host.endsWith('.local')) return;
    if (name.port !== undefined && (name.port < 1 || name.port > 65535)) return;
    out.push(name);
    taken.push([name.index, name.index + name.text.length]);
  };
  if (value.includes('://')) {
    for (const m of value.matchAll(urlPattern)) {
      const index = m.index! + m[0].length - m[1].length - (m[2] !== undefined ? m[2].length + 1 : 0);
      add({ text: m[2] !== undefined ? `${m[1]}:${m[2]}` : m[1], host: m[1], ...(m[2] !== undefined ? { port: Number(m[2]) } : {}), index, form: 'url' });
    }
  }
  if (value.includes(':')) {
    for (const m of value.matchAll(hostPortPattern)) {
      if (taken.some(([s, e]) => m.index! >= s && m.index! < e)) continue;
      add({ text: m[0], host: m[1], port: Number(m[2]), index: m.index!, form: 'hostport' });
    }
  }
  const trimmed = value.trim();
  if (variable && hostVariable.test(variable) && barePattern.test(trimmed)) add({ text: trimmed, host: trimmed, index: value.indexOf(trimmed), form: 'bare' });
  return out;
}
