// The charts under the CLI's PATH arguments: discovered from the collected files (plus the packaged `.tgz`
// subcharts next to them), rendered with helm when it is there (`--helm PATH`, else `helm` on PATH).

import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import type { SourceText } from '../features/analyzeTexts';
import { basename, dirname, discoverCharts, rendersAlone, type Chart, type ChartDiscovery, type ReleaseSetting } from '../model/helmCharts';
import type { RenderedUnit, RenderProblem } from '../model/rendered';
import { defaultHelmTimeoutMs, findHelm, helmMissingProblem, renderChartsSync } from '../workspace/helm';
import type { AnalysisOptions, HelmOptions } from './parseArgs';
import { messages, type Locale } from '../l10n/l10n';
import type { Progress } from './progress';

export interface ChartsFound {
  readonly discovery: ChartDiscovery;
  /** Top-level charts (subcharts render with their parent). */
  readonly topLevel: readonly Chart[];
  /** Notes on the config file's releases: passed over for `--helm-values`, or (`unmatched`) naming no chart under the paths. */
  readonly notes: readonly string[];
  readonly unmatched: readonly string[];
}

/**
 * The charts among the collected files; packaged subcharts are listed from each chart's `charts/` folder. The config
 * file's `helm.releases` add value sets to the charts they name (as in the editor), unless `--helm-values` chooses
 * the one value set of every chart.
 */
export function chartsIn(
  sources: readonly SourceText[],
  options: HelmOptions & Pick<AnalysisOptions, 'fromConfig'> & { readonly namespace?: string; readonly locale?: Locale },
): ChartsFound {
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  const uris = sources.map((s) => s.uri);
  for (const s of sources) {
    if (basename(s.uri) !== 'Chart.yaml') continue;
    const folder = join(dirname(s.uri), 'charts');
    if (!existsSync(folder)) continue;
    try {
      for (const name of readdirSync(folder)) if (name.endsWith('.tgz')) uris.push(`${dirname(s.uri)}/charts/${name}`);
    } catch {
      // an unreadable charts/ folder: its packaged subcharts count as missing, and helm says the rest
    }
  }
  const configured = options.fromConfig?.helmReleases ?? [];
  const msg = messages(options.locale);
  const notes: string[] = [];
  const unmatched: string[] = [];
  let releases: ReleaseSetting[] = [];
  if (configured.length && options.helmValues)
    notes.push(
      configured.length === 1
        ? msg("--helm-values renders each chart with those files alone: the release of the config file's helm.releases is not rendered")
        : msg(
            "--helm-values renders each chart with those files alone: the {0} releases of the config file's helm.releases are not rendered",
            configured.length,
          ),
    );
  else if (configured.length) {
    const spelled = releasesAsWalked(configured, sources);
    releases = spelled.releases;
    for (const r of spelled.unmatched)
      unmatched.push(
        msg("the config file's helm release {0} names the chart {1}, which is not a chart under the paths checked: not rendered", r.name, shownPath(r.chart)),
      );
  }
  const discovery = discoverCharts(uris, (u) => texts.get(u), {
    namespace: options.helmNamespace ?? options.namespace ?? 'default',
    valuesFiles: options.helmValues,
    ...(releases.length && { releases }),
  });
  return { discovery, topLevel: discovery.charts.filter((c) => rendersAlone(c)), notes, unmatched };
}

/**
 * The config file's releases (absolute paths) in the spelling of the walked files, which the charts' roots have
 * (`deploy/web`, or absolute when PATH was): a chart root as found, values files relative to the current folder when
 * the root is relative. Releases whose chart folder holds no Chart.yaml among the sources are `unmatched`.
 */
function releasesAsWalked(releases: readonly ReleaseSetting[], sources: readonly SourceText[]): { releases: ReleaseSetting[]; unmatched: ReleaseSetting[] } {
  const roots = new Map<string, string>();
  for (const s of sources) if (basename(s.uri) === 'Chart.yaml') roots.set(resolve(dirname(s.uri)), dirname(s.uri));
  const out: ReleaseSetting[] = [];
  const unmatched: ReleaseSetting[] = [];
  for (const r of releases) {
    const root = roots.get(resolve(r.chart));
    if (root === undefined) {
      unmatched.push(r);
      continue;
    }
    const spell = (abs: string) => (root.startsWith('/') ? abs : relative(process.cwd(), abs).split(sep).join('/'));
    out.push({ ...r, chart: root, values: r.values.map(spell) });
  }
  return { releases: out, unmatched };
}

function shownPath(abs: string): string {
  return relative(process.cwd(), abs).split(sep).join('/') || '.';
}

/** A usage problem with `--helm PATH`: it must name an executable file. */
export function helmOptionError(options: HelmOptions & { readonly locale?: Locale }): string | undefined {
  const msg = messages(options.locale);
  if (options.helm !== undefined && !findHelm(options.helm, {})) return msg('--helm {0} is not an executable file', options.helm);
  return undefined;
}

export interface ChartRenders {
  /** The helm executable used; undefined when none was found (then `problems` says so per chart). */
  readonly helm?: string;
  readonly units: readonly RenderedUnit[];
  /** Problems that are not any unit's: helm missing. */
  readonly problems: readonly RenderProblem[];
}

/** The deepest folder holding every path (the analysed folder that holds the charts). */
function commonFolder(paths: readonly string[]): string {
  const parts = paths.map((p) => p.split(sep));
  const first = parts[0] ?? [];
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n).join(sep) || sep;
}

/** Renders every top-level chart's value sets, or says per chart that rendering needs helm. */
export function renderCharts(
  found: ChartsFound,
  sources: readonly SourceText[],
  options: HelmOptions & { readonly locale?: Locale },
  env: Readonly<Record<string, string | undefined>>,
  progress?: Progress,
): ChartRenders {
  if (!found.topLevel.length) return { units: [], problems: [] };
  const msg = messages(options.locale);
  const helm = findHelm(options.helm, env);
  if (!helm) return { units: [], problems: found.topLevel.map(helmMissingProblem) };
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  // helm reads no link leading outside the current folder and the folder analysed (workspace/helm.ts
  // outsideWorkspace); --helm-values
  // files are the user's own choice, read wherever they are
  const run = {
    helm,
    timeoutMs: defaultHelmTimeoutMs,
    pathOf: (uri: string) => uri,
    roots: [process.cwd(), commonFolder(found.topLevel.map((c) => resolve(c.root)))],
    valuesAnywhere: true,
  };
  // helm is CPU-bound: as many renders at once as there are cores, at most four
  const units = renderChartsSync(
    found.topLevel,
    found.discovery.charts,
    run,
    (u) => texts.get(u),
    Math.min(4, availableParallelism()),
    // the words after the count (`2/5 Helm releases rendered`)
    progress?.lineForChild(msg('Helm releases rendered')),
  );
  return { helm, units, problems: [] };
}
