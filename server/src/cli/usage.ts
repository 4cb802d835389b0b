// Help texts: the overview and one page per command.

import type { CommandName } from './parseArgs';
import { messages, type Msg } from '../l10n/l10n';

const overview = (msg: Msg) =>
  msg(`kube-netlens: find Kubernetes networking mistakes in YAML manifests

Usage:
  kube-netlens check [PATH...]               report mistakes (selectors that match nothing, typos in
                                             serviceName, named ports no container declares, ...)
  kube-netlens dns [PATH...]                 list the cluster DNS names the manifests create
  kube-netlens trace NAMESPACE/SERVICE [PATH...]
                                             show how a request reaches a Service's pods
                                             (gateway/NAMESPACE/NAME, httproute/NAMESPACE/NAME…:
                                             from a Gateway's or a route's listeners;
                                             istio-gateway/…, virtualservice/…: from an Istio
                                             Gateway's servers or a VirtualService)
  kube-netlens reach [PATH...] [--from REF --to REF]
                                             which workloads may connect to which, on which ports,
                                             and the NetworkPolicy rule that decides it
  kube-netlens build DIR                     print the objects the kustomization in DIR builds (as
                                             \`kustomize build DIR\` would, without running it), or
                                             those the Helm chart in DIR renders to
  kube-netlens diff [BASE [HEAD]]            what a change does: findings introduced and fixed, DNS
                                             names added and removed (from git; the working copy is
                                             never touched)
  kube-netlens help COMMAND | COMMAND --help details of one command
  kube-netlens --version

--lang en|zh-cn (with any command) chooses the language of messages, help and summaries; without it,
LC_ALL, LC_MESSAGES or LANG decide (zh_CN: Simplified Chinese).

PATH is a file or a folder (default: the current folder). Folders are searched for *.yaml and *.yml,
skipping node_modules and .git; files over 1 MB are passed over. Helm charts (folders with a Chart.yaml)
are rendered with helm when it is installed (or given with --helm) and checked on their template lines;
without helm their templates are passed over. Every Kustomize root under PATH (a kustomization no other
one includes) is rendered natively and checked as the cluster it builds.

Exit codes: 0 no findings at or above --fail-on, 1 findings at or above it, 2 usage or I/O error.
`);

const restrictor = (msg: Msg) =>
  msg(`  --load-restrictor LoadRestrictionsRootOnly|LoadRestrictionsNone
                        which files a kustomization may read, as kustomize's flag (default
                        LoadRestrictionsRootOnly: only files in or below its own folder)
`);

const common = (msg: Msg) =>
  msg(
    `  --config FILE         the config file (default: the nearest .kube-netlens.yaml in or above the
                        first PATH); these flags come before its values
  --cluster-domain D    the cluster's DNS domain (kubelet --cluster-domain; default cluster.local)
  --namespace NS        namespace of objects that do not set metadata.namespace (default: default)
  --kustomize-root GLOB only the kustomizations GLOB names (relative to each folder PATH, e.g.
                        'overlays/*') are Kustomize roots (repeat for several patterns)
  --kustomize PATH      the kustomize or kubectl executable that builds the roots using what is not
                        evaluated natively (replacements, openapi, ...; default: kustomize, else
                        kubectl, on PATH); never with plugins, exec functions, Helm or the network
{0}`,
    restrictor(msg) +
      msg(`  --kustomize-timeout SECONDS
                        how long one build of the real Kustomize may take (default 10)
`),
  );

const helm = (msg: Msg) =>
  msg(`  --helm PATH           the helm executable (default: helm on PATH); charts render with
                        \`helm template\`, never with anything that reaches the network
  --helm-values FILE    render each chart with these values files instead of values.yaml,
                        ci/*-values.yaml and the config file's helm.releases (repeat for several files)
  --helm-namespace NS   the release namespace (default: --namespace, else default)
`);

const pages: Record<CommandName, (msg: Msg) => string> = {
  diff: (msg) =>
    msg(`Usage: kube-netlens diff [BASE [HEAD]] [options]

Compares two trees of the git repository the current folder is in, for the review of a change: the
findings it introduces, fixes and leaves unchanged (by identity, so lines that moved are no change), and
the DNS names it adds and removes, the Services added, removed or whose endpoints or routes change, the
Ingress and Gateway API routes added, removed or re-pointed, and the NetworkPolicy reach that changes.
BASE is a commit (default: the merge base of HEAD with origin/HEAD,
main or master); HEAD is a commit (default: the working tree as it is). Commits are read with
\`git archive\` into temporary folders: nothing in the working copy changes.

Options:
  --format text|markdown|json    output format (default text; markdown is for a pull-request comment)
  --fail-on error|warning|never  exit 1 when an introduced finding is at or above this severity
                                 (default error)
  --path PATH                    check only PATH, relative to the repository's root (repeatable)
  --config FILE                  the config file, relative to the repository's root
  -h, --help                     this help
`),
  check: (msg) =>
    msg(
      `Usage: kube-netlens check [PATH...] [options]

Reads every manifest under PATH and reports networking mistakes, one line per finding:
  file:line:col: severity code: message

Options:
  --format text|json|sarif|github
                                 output format (default text; sarif is SARIF 2.1.0 for CI code scanning,
                                 github prints GitHub Actions annotations)
  --fail-on error|warning|never  exit 1 when a finding at or above this severity exists (default error)
  --baseline FILE                report, and fail on, only findings FILE does not record (known ones are
                                 counted on stderr, and entries no finding matches any more are listed)
  --write-baseline FILE          record this run's findings in FILE (by identity, no line numbers) and
                                 exit 0; entries no finding matches any more are dropped
  --no-ignores                   also report what kube-netlens.io/ignore annotations and the config
                                 file's ignore: entries ignore (a strict audit)
  --help-uri URL                 the page SARIF rules link to, #CODE appended (default: docs/rules.md
                                 in the project's repository)
{0}{1}  -h, --help                     this help
`,
      common(msg),
      helm(msg),
    ),
  dns: (msg) =>
    msg(
      `Usage: kube-netlens dns [PATH...] [options]

Lists the DNS names CoreDNS will answer for the Services and pods in the manifests, grouped by namespace,
with the answer and when it resolves (always, or only while a pod is ready).

Options:
  --format text|json    output format (default text)
  --all                 also list names that depend on CoreDNS-only behaviour or on Corefile options
{0}{1}  -h, --help            this help
`,
      common(msg),
      helm(msg),
    ),
  trace: (msg) =>
    msg(
      `Usage: kube-netlens trace NAMESPACE/SERVICE [PATH...] [options]
       kube-netlens trace KIND/NAMESPACE/NAME [PATH...] [options]

Shows the path a request takes to the Service's pods: the names and entry points that reach it,
the Service and kube-proxy hops, the workloads behind it, the container ports, the NetworkPolicies
in the way, and every finding that breaks a hop.

KIND is service, gateway, httproute, grpcroute, tlsroute, tcproute or udproute. From a Gateway: each
listener, the routes it accepts, their rules and backendRefs, and the Services they lead to; from a
route: the listeners that accept it, its rules and backendRefs, and their Services. NAMESPACE/NAME
names a Gateway too when no Service has that name.

With --from REF, a Service's trace is drawn for that client: each endpoint group and container port
says whether the client's egress and the pods' ingress NetworkPolicies admit its connection on the pod
port the Service port lands on, and which rules decide. REF is NAMESPACE/NAME or NAMESPACE/KIND/NAME of
a workload, NAMESPACE/* (any pod of the namespace, its labels not given; quote it in a shell), or
external (an address outside the cluster).

Options:
  --format text|json|mermaid   output format (default text; mermaid is a flowchart a README can embed)
  --from REF                   the client to check NetworkPolicies for (a Service's trace)
{0}{1}  -h, --help                   this help
`,
      common(msg),
      helm(msg),
    ),
  reach: (msg) =>
    msg(
      `Usage: kube-netlens reach [PATH...] [options]
       kube-netlens reach [PATH...] --from REF --to REF [--port PORT[/PROTOCOL]] [options]

Evaluates the NetworkPolicies of the manifests in both directions: a connection is allowed when the
source's egress and the destination's ingress both admit it. Without --from/--to: the connectivity list,
one line per allowed connection with its ports (ns/web[Deployment] => ns/api[Deployment] : TCP 8080),
then the connections the manifests cannot decide. A pair that is not listed is denied. With --from and
--to: one verdict (allowed, denied or unknown) and the policy rules that decide it.

REF is NAMESPACE/NAME or NAMESPACE/KIND/NAME of a workload (shop/web, shop/statefulset/db), external
(an address outside the cluster), or, for --from, NAMESPACE/* (any pod of the namespace, its labels not
given; quote it in a shell). Semantics: docs/networkpolicy-semantics.md; JSON shape: docs/reach.md.

Options:
  --from REF, --to REF  the two ends of one connection (both or neither)
  --port PORT[/PROTO]   only this port (protocol TCP, UDP or SCTP; default TCP)
  --limit N             list at most N connections, the first in the list's order (default 10000; 0: all)
  --format text|json    output format (default text)
{0}{1}  -h, --help            this help
`,
      common(msg),
      helm(msg),
    ),
  build: (msg) =>
    msg(
      `Usage: kube-netlens build DIR [options]

A folder with a kustomization (kustomization.yaml, kustomization.yml or Kustomization): renders it the way
\`kustomize build DIR\` does, without running Kustomize: resources and nested kustomizations, components,
namespace, name prefixes and suffixes with the name references Kustomize rewrites, labels, annotations,
patches of every kind, replicas, images, ConfigMap/Secret generators with their hashed names, transformer
configurations, vars and replacements. Remote resources, Helm charts, plugins and label selectors in
replacements are not evaluated: build then exits 2 and says so.

A folder with a Chart.yaml: renders the Helm chart with \`helm template\` and prints the objects it makes,
with the --helm-values files, else as the config file's first release of the chart (helm.releases in
.kube-netlens.yaml), else with its values.yaml.

Options:
  --format yaml|json    yaml: documents separated by ---; json: one array of objects (default yaml)
  --release NAME        the config file's release of the chart to render (default: its first)
  --config FILE         the config file (default: the nearest .kube-netlens.yaml in or above DIR)
{0}{1}  -h, --help            this help
`,
      restrictor(msg),
      helm(msg),
    ),
};

export function helpText(topic?: CommandName, msg: Msg = messages(undefined)): string {
  return topic ? pages[topic](msg) : overview(msg);
}
