// Helm charts in a workspace, from its file URIs and the texts of the chart files: the chart roots (a folder with a
// Chart.yaml of apiVersion v1 or v2), their subcharts under `charts/` (folders, and packaged `.tgz` files), the
// dependencies Chart.yaml (v2) or requirements.yaml (v1) declares and whether each is present, the value sets each
// top-level chart is rendered with, and the files that are templates (never read as manifests).
// Pure: URIs are strings with `/` separators (file URIs or relative paths alike).

import { isMap, isSeq, str, type YNode } from './yamlTree';
import { push } from './multiMap';
import { libraryDocuments } from './parseManifest';
import type { Span } from './span';

export interface ChartDependency {
  readonly name: string;
  readonly alias?: string;
  readonly version?: string;
  readonly repository?: string;
  /** The dependency's entry in Chart.yaml or requirements.yaml. */
  readonly declaredIn: string;
  readonly span: Span;
  /** A folder under `charts/` with that chart, or a packaged `charts/<name>-<version>.tgz`. */
  readonly present: boolean;
}

/** One render of a chart: `helm template <release> <chart> --namespace <namespace> [-f values…] [--set …]`. */
export interface ValueSet {
  /** Stable within the chart: `values.yaml`, `ci/prod-values.yaml`, `release shop-eu`. */
  readonly id: string;
  /** For messages: `values ci/prod-values.yaml`, `release shop-eu`. */
  readonly label: string;
  readonly release: string;
  readonly namespace: string;
  /** URIs of the values files passed with -f, in order (the chart's own values.yaml is always read by helm). */
  readonly valuesFiles: readonly string[];
  /** `--set` pairs, `key=value`. */
  readonly set: readonly string[];
}

export interface Chart {
  /** The chart's folder URI (no trailing slash). */
  readonly root: string;
  readonly chartYaml: string;
  /** `name:` of Chart.yaml; helm prints it in `# Source:` comments. */
  readonly name: string;
  readonly apiVersion: 'v1' | 'v2';
  /** The span of the `name:` entry (or the start of the file): where chart-level findings go. */
  readonly nameSpan: Span;
  /** The chart this one is a subchart of (under its `charts/`), if any. */
  readonly parent?: string;
  /** `type: library`: templates other charts include; helm renders it only as a dependency, never alone. */
  readonly library?: boolean;
  /** Roots of unpacked subcharts under `charts/`. */
  readonly subcharts: readonly string[];
  /** `.tgz` files under `charts/`. */
  readonly packaged: readonly string[];
  readonly dependencies: readonly ChartDependency[];
  /** Value sets: only top-level charts are rendered (a subchart renders with its parent). */
  readonly valueSets: readonly ValueSet[];
  /** Labels of the value sets past `maxValueSetsPerChart`, which are not rendered (said in a note on Chart.yaml). */
  readonly omittedValueSets?: readonly string[];
  /** Every workspace file under the chart's folder (its subcharts' files included): an edit renders it again. */
  readonly files: readonly string[];
}

/** A release named by the `kubeNetlens.helm.releases` setting (or the CLI), before it is matched to a chart. */
export interface ReleaseSetting {
  /** The chart folder, as a URI or relative to the workspace folder. */
  readonly chart: string;
  readonly name: string;
  readonly namespace?: string;
  /** Values files, as URIs or relative to the workspace folder. */
  readonly values: readonly string[];
  readonly set: readonly string[];
}

export interface ChartOptions {
  /** Namespace of releases that name none. */
  readonly namespace: string;
  /** Releases from the settings; relative paths are read from `base`. */
  readonly releases?: readonly ReleaseSetting[];
  /** The workspace folder URI relative paths in `releases` start from. */
  readonly base?: string;
  /**
   * When given, each top-level chart has exactly this one value set (the CLI's `--helm-values`): these files,
   * as URIs, replace the default `values.yaml` and `ci/*-values.yaml` sets.
   */
  readonly valuesFiles?: readonly string[];
}

export interface ChartDiscovery {
  /** Every chart, parents before their subcharts, in URI order otherwise. */
  readonly charts: readonly Chart[];
  /** Files under a chart's `templates/` (its subcharts' too): rendered by helm, never read as manifests. */
  readonly templates: ReadonlySet<string>;
}

/** A file's text, if the workspace has it. */
export type TextOf = (uri: string) => string | undefined;

export function discoverCharts(uris: readonly string[], textOf: TextOf, options: ChartOptions): ChartDiscovery {
  // most workspaces have no chart: one pass over the names, nothing sorted
  if (!uris.some((u) => u.endsWith('/Chart.yaml') || u === 'Chart.yaml')) return { charts: [], templates: new Set() };
  const sorted = [...uris].sort();
  const roots = new Map<
    string,
    { chartYaml: string; name: string; apiVersion: 'v1' | 'v2'; nameSpan: Span; library: boolean; deps: ReturnType<typeof readDependencies> }
  >();
  for (const uri of sorted) {
    if (basename(uri) !== 'Chart.yaml') continue;
    const meta = readChartYaml(textOf(uri) ?? '');
    if (!meta) continue;
    const root = dirname(uri);
    let deps = meta.apiVersion === 'v2' ? readDependencies(meta.root, uri) : [];
    if (meta.apiVersion === 'v1') {
      const req = inFolder(root, 'requirements.yaml');
      const reqText = textOf(req);
      if (reqText !== undefined) deps = readDependencies(libraryDocuments(reqText).documents[0]?.root, req);
    }
    roots.set(root, { chartYaml: uri, name: meta.name, apiVersion: meta.apiVersion, nameSpan: meta.nameSpan, library: meta.library, deps });
  }
  const chartRoots = [...roots.keys()];
  /**
   * The chart roots a file lies in, innermost first: its folders looked up, so a workspace of a hundred charts costs
   * a file its depth, not a test per chart.
   */
  const ownersOf = (uri: string): string[] => {
    const out: string[] = [];
    for (let cut = uri.lastIndexOf('/'); cut > 0; cut = uri.lastIndexOf('/', cut - 1)) {
      const folder = uri.slice(0, cut);
      if (roots.has(folder)) out.push(folder);
    }
    if (roots.has('.') && isInFolder('.', uri)) out.push('.');
    return out;
  };
  const templates = new Set<string>();
  const filesOf = new Map<string, string[]>(chartRoots.map((r) => [r, []]));
  /** Files directly in a folder named `charts`, by that folder: subcharts' roots and packaged `.tgz` charts. */
  const inCharts = new Map<string, string[]>();
  const chartsFolderOf = (uri: string) => (basename(dirname(uri)) === 'charts' ? dirname(uri) : undefined);
  for (const uri of sorted) {
    const folder = uri.endsWith('.tgz') && chartsFolderOf(uri);
    if (folder) push(inCharts, folder, uri);
    const owners = ownersOf(uri);
    if (!owners.length) continue;
    if (uri.startsWith(inFolder(owners[0], 'templates/'))) templates.add(uri);
    for (const r of owners) filesOf.get(r)!.push(uri);
  }
  const subchartsIn = new Map<string, string[]>();
  for (const r of chartRoots) {
    const folder = chartsFolderOf(r);
    if (folder) push(subchartsIn, folder, r);
  }
  const charts: Chart[] = [];
  for (const root of chartRoots) {
    const info = roots.get(root)!;
    const parentRoot = dirname(dirname(root));
    const parent = basename(dirname(root)) === 'charts' && roots.has(parentRoot) ? parentRoot : undefined;
    const subcharts = subchartsIn.get(inFolder(root, 'charts')) ?? [];
    const packaged = inCharts.get(inFolder(root, 'charts')) ?? [];
    const dependencies = info.deps.map((d) => ({
      ...d,
      present:
        subcharts.some((s) => basename(s) === d.name || roots.get(s)?.name === d.name) ||
        packaged.some((p) => basename(p) === `${d.name}-${d.version}.tgz` || (!d.version && basename(p).startsWith(`${d.name}-`))) ||
        // a version range: any packaged version of that name
        packaged.some((p) => new RegExp(`^${escapeRegExp(d.name)}-\\d[^/]*\\.tgz$`).test(basename(p))),
    }));
    charts.push({
      root,
      chartYaml: info.chartYaml,
      name: info.name,
      apiVersion: info.apiVersion,
      nameSpan: info.nameSpan,
      parent,
      ...(info.library && { library: true }),
      subcharts,
      packaged,
      dependencies,
      ...(parent || info.library ? { valueSets: [] } : capped(valueSetsOf(root, info.name, filesOf.get(root)!, options))),
      files: filesOf.get(root)!,
    });
  }
  return { charts, templates };
}

/** Whether `helm template` renders the chart on its own: not a subchart (it renders with its parent), not a library. */
export function rendersAlone(chart: Chart): boolean {
  return !chart.parent && !chart.library;
}

/**
 * Value sets rendered per chart: each is a run of helm (seconds of CPU, a rendered file the analysis keeps), so a
 * chart with thousands of `ci/*-values.yaml` files renders its first ones (values.yaml, then the others in name
 * order, then the releases) and names the rest in a note.
 */
export const maxValueSetsPerChart = 20;

function capped(sets: readonly ValueSet[]): { valueSets: readonly ValueSet[]; omittedValueSets?: readonly string[] } {
  if (sets.length <= maxValueSetsPerChart) return { valueSets: sets };
  return { valueSets: sets.slice(0, maxValueSetsPerChart), omittedValueSets: sets.slice(maxValueSetsPerChart).map((v) => v.label) };
}

/** The value sets of a top-level chart: values.yaml alone, each `ci/*-values.yaml`, and the releases that name it. */
function valueSetsOf(root: string, name: string, files: readonly string[], options: ChartOptions): ValueSet[] {
  const release = releaseName(name);
  if (options.valuesFiles) {
    const label = options.valuesFiles.length ? `values ${options.valuesFiles.map((f) => relativeTo(root, f)).join(', ')}` : 'values.yaml';
    return [{ id: 'cli', label, release, namespace: options.namespace, valuesFiles: options.valuesFiles, set: [] }];
  }
  const sets: ValueSet[] = [{ id: 'values.yaml', label: 'values.yaml', release, namespace: options.namespace, valuesFiles: [], set: [] }];
  for (const f of [...files].sort()) {
    if (dirname(f) === inFolder(root, 'ci') && /-values\.ya?ml$/.test(f)) {
      const rel = relativeTo(root, f);
      sets.push({ id: rel, label: `values ${rel}`, release, namespace: options.namespace, valuesFiles: [f], set: [] });
    }
  }
  for (const r of options.releases ?? []) {
    if (trimSlash(resolveUri(options.base, r.chart)) !== root) continue;
    const valuesFiles = r.values.map((v) => resolveUri(options.base, v));
    const what = [...valuesFiles.map((v) => pathFrom(root, v)), ...r.set.map((s) => `--set ${s}`)];
    sets.push({
      id: `release ${r.name}`,
      label: `release ${r.name}${what.length ? `, values ${what.join(', ')}` : ''}`,
      release: r.name,
      namespace: r.namespace ?? options.namespace,
      valuesFiles,
      set: r.set,
    });
  }
  return sets;
}

/** A chart name as a release name: helm wants a DNS-1123 label-like name (semantics §6), at most 53 characters. */
function releaseName(chartName: string): string {
  const n = chartName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 53)
    .replace(/-+$/, '');
  return n || 'release';
}

function readChartYaml(text: string): { apiVersion: 'v1' | 'v2'; name: string; nameSpan: Span; library: boolean; root: YNode | undefined } | undefined {
  if (!text.trim() || text.includes('\u0000')) return undefined;
  let root: YNode | undefined;
  try {
    root = libraryDocuments(text).documents[0]?.root;
  } catch {
    return undefined;
  }
  if (!isMap(root)) return undefined;
  const apiVersion = str(root.entries.get('apiVersion')?.value);
  // Chart.yaml files of Helm 2 may leave apiVersion out; they are v1.
  const version = apiVersion === undefined ? 'v1' : apiVersion === 'v1' || apiVersion === 'v2' ? apiVersion : undefined;
  if (!version) return undefined;
  const nameEntry = root.entries.get('name');
  const name = str(nameEntry?.value);
  if (!name) return undefined;
  const nameSpan = nameEntry ? { start: nameEntry.keySpan.start, end: nameEntry.value.span.end } : { start: 0, end: 0 };
  // `type: library` (Helm 3): `helm template` refuses it ("library charts are not installable")
  const library = version === 'v2' && str(root.entries.get('type')?.value) === 'library';
  return { apiVersion: version, name, nameSpan, library, root };
}

function readDependencies(root: YNode | undefined, uri: string): Omit<ChartDependency, 'present'>[] {
  if (!isMap(root)) return [];
  const list = root.entries.get('dependencies')?.value;
  if (!isSeq(list)) return [];
  const out: Omit<ChartDependency, 'present'>[] = [];
  for (const item of list.items) {
    if (!isMap(item)) continue;
    const name = str(item.entries.get('name')?.value);
    if (!name) continue;
    const version = item.entries.get('version')?.value;
    out.push({
      name,
      alias: str(item.entries.get('alias')?.value),
      version: version?.type === 'scalar' && version.value !== null ? String(version.value) : undefined,
      repository: str(item.entries.get('repository')?.value),
      declaredIn: uri,
      span: item.span,
    });
  }
  return out;
}

/**
 * `rest` inside the folder `root`. The command line names files as found from the path it was given, so a chart in
 * the current folder has the root `.` and files `Chart.yaml`, `templates/a.yaml` (no `./`).
 */
export function inFolder(root: string, rest: string): string {
  return root === '.' ? rest : `${root}/${rest}`;
}

/** Whether `uri` lies inside the folder `root` (see inFolder for the root `.`). */
export function isInFolder(root: string, uri: string): boolean {
  return root === '.' ? !uri.startsWith('/') && !uri.startsWith('../') && !/^[a-z][a-z0-9+.-]*:/i.test(uri) : uri.startsWith(`${root}/`);
}

export function dirname(uri: string): string {
  const i = uri.lastIndexOf('/');
  return i < 0 ? '.' : uri.slice(0, i);
}

export function basename(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

/** `uri` relative to the folder `root` when inside it; the URI itself otherwise. */
export function relativeTo(root: string, uri: string): string {
  return root !== '.' && uri.startsWith(`${root}/`) ? uri.slice(root.length + 1) : uri;
}

/** `uri` as a relative path from the folder `root` (`../deploy/eu.yaml`); the URI itself when they share no folder. */
export function pathFrom(root: string, uri: string): string {
  const a = root.split('/');
  const b = uri.split('/');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  // nothing in common but the scheme: no relative path says more than the URI
  if (common <= (root.includes('://') ? 3 : 1)) return uri;
  return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
}

function trimSlash(uri: string): string {
  return uri.replace(/\/+$/, '');
}

/** A path from the settings as a workspace URI: absolute URIs and paths as they are, relative ones from `base`. */
export function resolveUri(base: string | undefined, p: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p) || p.startsWith('/') || base === undefined) return trimSlash(p);
  const parts = trimSlash(base).split('/');
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The URI a render of one value set enters the analysis under: in a folder of its own inside the chart, so renders of
 * one chart are siblings (model/project.ts compares them file by file). `#` never appears unencoded in a file URI
 * an editor sends, so no workspace file has this URI.
 */
export function renderUri(chart: Chart, valueSet: ValueSet): string {
  return inFolder(chart.root, `#helm/${encodeURIComponent(valueSet.id)}`);
}
