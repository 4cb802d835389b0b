// The command line → one request (a command with its options), or a usage error as a value.

import type { IngressControllerSetting, LoadRestrictor, RuleLevel } from '../model/config';
import type { ReleaseSetting } from '../model/helmCharts';
import { messages, type Locale, type Msg } from '../l10n/l10n';
import { checkGlob } from '../workspace/glob';
import { isDns1123Label, isDns1123Subdomain } from '../model/dnsNames';

export type CommandName = 'check' | 'dns' | 'trace' | 'build' | 'reach' | 'diff';
export type FailOn = 'error' | 'warning' | 'never';

export interface AnalysisOptions {
  readonly paths: readonly string[];
  /** The language of messages: `--lang`, else LC_ALL / LC_MESSAGES / LANG (runCli.ts); undefined: English. */
  readonly locale?: Locale;
  readonly clusterDomain?: string;
  readonly namespace?: string;
  /** `--kustomize-root GLOB` (repeatable): only these kustomizations are roots (relative to each folder PATH). */
  readonly kustomizeRoots?: readonly string[];
  /** The folder the Kustomize roots are relative to when they come from the config file. */
  readonly kustomizeRootsDir?: string;
  /** `--kustomize PATH`: the kustomize or kubectl that builds what is not evaluated natively. */
  readonly kustomize?: string;
  /** `--load-restrictor LoadRestrictionsRootOnly|LoadRestrictionsNone` (kustomize's flag); default rootOnly. */
  readonly loadRestrictor?: LoadRestrictor;
  /** `--kustomize-timeout SECONDS`: how long one real Kustomize build may take (the editor's kubeNetlens.kustomize.timeoutSeconds). */
  readonly kustomizeTimeoutMs?: number;
  /** `--config FILE`: the config file; without it, the nearest .kube-netlens.yaml above the first PATH. */
  readonly config?: string;
  /** From the config file (cli/configFile.ts): rule severities, the node-port range, the ingress controller, and which files are read. */
  readonly fromConfig?: {
    readonly rules?: Readonly<Record<string, RuleLevel>>;
    readonly nodePortRange?: readonly [number, number];
    readonly ingressController?: IngressControllerSetting;
    /** The config file's folder: `include`, `exclude` and the Kustomize roots are relative to it. */
    readonly dir: string;
    readonly include?: readonly string[];
    readonly exclude?: readonly string[];
    /** `helm.releases`, their chart and values paths absolute (cli/helmCharts.ts spells them as the walk does). */
    readonly helmReleases?: readonly ReleaseSetting[];
  };
}

/** How charts are rendered: `--helm PATH`, `--helm-values FILE` (repeatable), `--helm-namespace NS`. */
export interface HelmOptions {
  readonly helm?: string;
  readonly helmValues?: readonly string[];
  readonly helmNamespace?: string;
}

export interface CheckRequest extends AnalysisOptions, HelmOptions {
  readonly command: 'check';
  readonly format: 'text' | 'json' | 'sarif' | 'github';
  readonly failOn: FailOn;
  /** `--help-uri URL`: the page SARIF rules link to (`#<code>` appended); default docs/rules.md in the repository. */
  readonly helpUri?: string;
  /** `--baseline FILE`: report and fail on findings the baseline does not know only (cli/baseline.ts). */
  readonly baseline?: string;
  /** `--write-baseline FILE`: record this run's findings (dropping entries no finding matches any more). */
  readonly writeBaseline?: string;
  /** `--no-ignores`: report the findings suppressions ignore too (features/suppressions.ts). */
  readonly noIgnores?: boolean;
}

export interface DnsRequest extends AnalysisOptions, HelmOptions {
  readonly command: 'dns';
  readonly format: 'text' | 'json';
  readonly all: boolean;
}

/** The kinds `kube-netlens trace` starts from. */
const traceKinds = ['Service', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute', 'IstioGateway', 'VirtualService'] as const;
type TraceKind = (typeof traceKinds)[number];

export interface TraceRequest extends AnalysisOptions, HelmOptions {
  readonly command: 'trace';
  readonly format: 'text' | 'json' | 'mermaid';
  /** `kind` when the target was written `KIND/NAMESPACE/NAME` (`gateway/shop/edge`, `httproute/shop/site`). */
  readonly target: { readonly kind?: TraceKind; readonly namespace: string; readonly name: string };
  /** `--from REF`: the client whose connections the Service trace checks against NetworkPolicies (cli/traceCommand.ts reads it). */
  readonly from?: string;
}

/** `kube-netlens build DIR`: the objects a kustomization builds, or a Helm chart renders to. */
export interface BuildRequest extends HelmOptions {
  readonly command: 'build';
  readonly loadRestrictor?: LoadRestrictor;
  readonly dir: string;
  /** `--config FILE`: the config file whose `helm.releases` name the chart's releases (default: the nearest one). */
  readonly config?: string;
  /** `--release NAME`: which of the config file's releases of the chart to render (default: its first). */
  readonly release?: string;
  readonly format: 'yaml' | 'json';
  /** The language of its notes and errors (runCli: --lang or the locale environment). */
  readonly locale?: Locale;
}

/** `kube-netlens reach [PATH...] [--from REF --to REF] [--port PORT[/PROTO]]` (cli/reachCommand.ts reads the REFs). */
export interface ReachRequest extends AnalysisOptions, HelmOptions {
  readonly command: 'reach';
  readonly format: 'text' | 'json';
  readonly from?: string;
  readonly to?: string;
  readonly port?: string;
  /** `--limit N`: how many connections the list shows (0: all; default features/reachReport.ts `defaultReachLimit`). */
  readonly limit?: number;
}

/** `kube-netlens diff [BASE [HEAD]] [--path PATH]`: what a change does (cli/diffCommand.ts). */
export interface DiffRequest {
  readonly command: 'diff';
  /** A commit; undefined: the merge base of HEAD with the default branch. */
  readonly base?: string;
  /** A commit; undefined: the working tree. */
  readonly head?: string;
  /** Relative to the repository's root. */
  readonly paths: readonly string[];
  readonly config?: string;
  readonly format: 'text' | 'markdown' | 'json';
  readonly failOn: FailOn;
  /** The language of the text and Markdown, and of the findings' messages (runCli's `--lang` or environment). */
  readonly locale?: Locale;
}

export type CliRequest =
  | CheckRequest
  | ReachRequest
  | DiffRequest
  | BuildRequest
  | DnsRequest
  | TraceRequest
  | { readonly command: 'help'; readonly topic?: CommandName }
  | { readonly command: 'version' };

export interface UsageError {
  readonly command: 'usage-error';
  readonly message: string;
}

interface FlagSpec {
  /** Allowed values; an empty list means any non-empty value; undefined means the flag takes no value. */
  readonly values?: readonly string[];
  /** The flag may be given several times; every value is kept. */
  readonly repeatable?: boolean;
}

const commonFlags: Record<string, FlagSpec> = {
  '--cluster-domain': { values: [] },
  '--namespace': { values: [] },
  '--kustomize-root': { values: [], repeatable: true },
  '--kustomize': { values: [] },
  '--kustomize-timeout': { values: [] },
  '--load-restrictor': { values: ['LoadRestrictionsRootOnly', 'LoadRestrictionsNone'] },
  '--config': { values: [] },
};

const helmFlags: Record<string, FlagSpec> = {
  '--helm': { values: [] },
  '--helm-values': { values: [], repeatable: true },
  '--helm-namespace': { values: [] },
};

const flagsOf: Record<CommandName, Record<string, FlagSpec>> = {
  check: {
    ...commonFlags,
    ...helmFlags,
    '--format': { values: ['text', 'json', 'sarif', 'github'] },
    '--fail-on': { values: ['error', 'warning', 'never'] },
    '--help-uri': { values: [] },
    '--baseline': { values: [] },
    '--write-baseline': { values: [] },
    '--no-ignores': {},
  },
  build: {
    ...helmFlags,
    '--load-restrictor': commonFlags['--load-restrictor'],
    '--config': commonFlags['--config'],
    '--release': { values: [] },
    '--format': { values: ['yaml', 'json'] },
  },
  dns: { ...commonFlags, ...helmFlags, '--format': { values: ['text', 'json'] }, '--all': {} },
  trace: { ...commonFlags, ...helmFlags, '--format': { values: ['text', 'json', 'mermaid'] }, '--from': { values: [] } },
  reach: {
    ...commonFlags,
    ...helmFlags,
    '--format': { values: ['text', 'json'] },
    '--from': { values: [] },
    '--to': { values: [] },
    '--port': { values: [] },
    '--limit': { values: [] },
  },
  diff: {
    '--format': { values: ['text', 'markdown', 'json'] },
    '--fail-on': { values: ['error', 'warning', 'never'] },
    '--path': { values: [], repeatable: true },
    '--config': { values: [] },
  },
};

const commands: readonly string[] = ['check', 'dns', 'trace', 'build', 'reach', 'diff'];

// semantics §6: namespaces are DNS-1123 labels; the cluster domain is a DNS subdomain.

export function parseArgs(argv: readonly string[], msg: Msg = messages(undefined)): CliRequest | UsageError {
  const [first, ...rest] = argv;
  if (first === undefined) return usage(msg('no command given; try `kube-netlens --help`'));
  if (first === '--help' || first === '-h') return { command: 'help' };
  if (first === '--version' || first === '-v') return { command: 'version' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { command: 'help' };
    return isCommand(topic)
      ? { command: 'help', topic }
      : usage(msg("unknown command '{0}'; the commands are check, dns, trace, build, reach and diff", topic));
  }
  if (!isCommand(first)) {
    if (first.startsWith('-')) return usage(msg("unknown option '{0}'; try `kube-netlens --help`", first));
    return usage(msg("unknown command '{0}'; the commands are check, dns, trace, build, reach and diff", first));
  }
  return parseCommand(first, rest, msg);
}

function parseCommand(command: CommandName, argv: readonly string[], msg: Msg): CliRequest | UsageError {
  const specs = flagsOf[command];
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (onlyPositionals || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (arg === '--help' || arg === '-h') return { command: 'help', topic: command };
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = specs[flag];
    if (!spec) return usage(msg("unknown option '{0}' for {1}; try `kube-netlens {1} --help`", flag, command));
    if (!spec.values) {
      if (eq > 0) return usage(msg('option {0} takes no value', flag));
      switches.add(flag);
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    if (value === undefined || value === '')
      return usage(spec.values.length ? msg('option {0} needs a value ({1})', flag, spec.values.join(', ')) : msg('option {0} needs a value', flag));
    if (spec.values.length && !spec.values.includes(value)) return usage(msg("option {0} must be one of {1} (got '{2}')", flag, spec.values.join(', '), value));
    values.set(flag, value);
    if (spec.repeatable) lists.set(flag, [...(lists.get(flag) ?? []), value]);
  }
  const helmNamespace = values.get('--helm-namespace');
  if (helmNamespace !== undefined && !isDns1123Label(helmNamespace))
    return usage(msg("--helm-namespace '{0}' is not a valid namespace name (lower-case letters, digits and '-')", helmNamespace));
  const helm: HelmOptions = { helm: values.get('--helm'), helmValues: lists.get('--helm-values'), helmNamespace };
  const restrictor = values.get('--load-restrictor');
  const loadRestrictor: LoadRestrictor | undefined = restrictor === undefined ? undefined : restrictor === 'LoadRestrictionsNone' ? 'none' : 'rootOnly';
  const restricted = loadRestrictor ? { loadRestrictor } : {};
  if (command === 'diff') {
    if (positionals.length > 2) return usage(msg('diff takes at most two commits: BASE and HEAD'));
    const [base, head] = positionals;
    return {
      command,
      ...(base !== undefined && { base }),
      ...(head !== undefined && { head }),
      paths: lists.get('--path') ?? ['.'],
      ...(values.has('--config') && { config: values.get('--config') }),
      format: (values.get('--format') ?? 'text') as DiffRequest['format'],
      failOn: (values.get('--fail-on') ?? 'error') as FailOn,
    };
  }
  if (command === 'build') {
    if (positionals.length !== 1) return usage(msg('build needs one folder: a kustomization or a chart (a folder with a Chart.yaml)'));
    return {
      command,
      ...helm,
      ...restricted,
      dir: positionals[0],
      ...(values.has('--config') && { config: values.get('--config') }),
      ...(values.has('--release') && { release: values.get('--release') }),
      format: (values.get('--format') ?? 'yaml') as BuildRequest['format'],
    };
  }
  const namespace = values.get('--namespace');
  if (namespace !== undefined && !isDns1123Label(namespace))
    return usage(msg("--namespace '{0}' is not a valid namespace name (lower-case letters, digits and '-')", namespace));
  let clusterDomain = values.get('--cluster-domain');
  if (clusterDomain !== undefined) {
    clusterDomain = clusterDomain.replace(/\.$/, '');
    if (!isDns1123Subdomain(clusterDomain)) return usage(msg("--cluster-domain '{0}' is not a valid DNS domain", values.get('--cluster-domain')!));
  }
  const kustomizeRoots = lists.get('--kustomize-root');
  const bad = kustomizeRoots?.map((g) => [g, checkGlob(g, msg)] as const).find(([, why]) => why);
  if (bad) return usage(msg("--kustomize-root '{0}' is not a usable pattern ({1})", bad[0], String(bad[1])));
  const timeout = values.get('--kustomize-timeout');
  const seconds = timeout === undefined ? undefined : Number(timeout);
  if (seconds !== undefined && !(Number.isFinite(seconds) && seconds > 0 && seconds <= 3600))
    return usage(msg("--kustomize-timeout '{0}' is not a number of seconds above 0 and at most 3600", timeout!));
  const common = {
    clusterDomain,
    ...(seconds !== undefined && { kustomizeTimeoutMs: Math.max(1, Math.round(seconds * 1000)) }),
    namespace,
    ...restricted,
    ...(values.has('--config') && { config: values.get('--config') }),
    ...(kustomizeRoots && { kustomizeRoots }),
    ...(values.has('--kustomize') && { kustomize: values.get('--kustomize') }),
  };
  if (command === 'check') {
    const helpUri = values.get('--help-uri');
    if (helpUri !== undefined && !/^https?:\/\/[^\s#]+$/.test(helpUri))
      return usage(msg("--help-uri '{0}' is not an absolute http(s) URL without a fragment", helpUri));
    return {
      command,
      ...common,
      ...helm,
      paths: orCurrentDir(positionals),
      format: (values.get('--format') ?? 'text') as CheckRequest['format'],
      failOn: (values.get('--fail-on') ?? 'error') as FailOn,
      ...(helpUri && { helpUri }),
      ...(values.has('--baseline') && { baseline: values.get('--baseline') }),
      ...(values.has('--write-baseline') && { writeBaseline: values.get('--write-baseline') }),
      ...(switches.has('--no-ignores') && { noIgnores: true }),
    };
  }
  if (command === 'dns') {
    return {
      command,
      ...common,
      ...helm,
      paths: orCurrentDir(positionals),
      format: (values.get('--format') ?? 'text') as DnsRequest['format'],
      all: switches.has('--all'),
    };
  }
  if (command === 'reach') {
    const ends = { from: values.get('--from'), to: values.get('--to'), port: values.get('--port') };
    if ((ends.from === undefined) !== (ends.to === undefined)) return usage(msg('reach needs both --from and --to (or neither, for the connectivity list)'));
    const limitText = values.get('--limit');
    const limit = limitText === undefined ? undefined : /^\d{1,9}$/.test(limitText) ? Number(limitText) : NaN;
    if (limit !== undefined && Number.isNaN(limit)) return usage(msg("--limit '{0}' is not a number of connections (0 lists them all)", limitText!));
    return {
      command,
      ...common,
      ...helm,
      ...ends,
      ...(limit !== undefined && { limit }),
      paths: orCurrentDir(positionals),
      format: (values.get('--format') ?? 'text') as ReachRequest['format'],
    };
  }
  const [target, ...paths] = positionals;
  if (target === undefined)
    return usage(
      msg(
        'trace needs the Service to trace, as NAMESPACE/SERVICE (e.g. shop/api), or a Gateway or route, as KIND/NAMESPACE/NAME (e.g. gateway/shop/edge, istio-gateway/shop/public, virtualservice/shop/reviews)',
      ),
    );
  const m = /^(?:([^/]+)\/)?([^/]+)\/([^/]+)$/.exec(target);
  const kind = m?.[1] === undefined ? undefined : traceKinds.find((k) => k.toLowerCase() === m[1].toLowerCase().replace(/-/g, ''));
  if (!m || (m[1] !== undefined && !kind))
    return usage(msg("'{0}' is not NAMESPACE/SERVICE (e.g. shop/api) or KIND/NAMESPACE/NAME with KIND one of {1}", target, traceKinds.join(', ')));
  const from = values.get('--from');
  if (from !== undefined && kind !== undefined && kind !== 'Service')
    return usage(msg("--from checks a client's connections to a Service's pods; a {0} trace has no pods of its own", kind));
  return {
    command,
    ...common,
    ...helm,
    target: { ...(kind ? { kind } : {}), namespace: m[2], name: m[3] },
    ...(from !== undefined ? { from } : {}),
    paths: orCurrentDir(paths),
    format: (values.get('--format') ?? 'text') as TraceRequest['format'],
  };
}

function isCommand(s: string): s is CommandName {
  return commands.includes(s);
}

function orCurrentDir(paths: readonly string[]): readonly string[] {
  return paths.length ? paths : ['.'];
}

function usage(message: string): UsageError {
  return { command: 'usage-error', message };
}
