// The charts under the CLI's PATH arguments: discovered from the collected files (plus the packaged `.tgz`
// subcharts next to them), rendered with helm when it is there (`--helm PATH`, else `helm` on PATH).

import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve, sep } from 'node:path';
import type { SourceText } from '../features/analyzeTexts';
import { basename, dirname, discoverCharts, type Chart, type ChartDiscovery } from '../model/helmCharts';
import type { RenderedUnit, RenderProblem } from '../model/rendered';
import { defaultHelmTimeoutMs, findHelm, helmMissingProblem, renderChartsSync } from '../workspace/helm';
import type { HelmOptions } from './parseArgs';
import type { Progress } from './progress';

export interface ChartsFound {
  readonly discovery: ChartDiscovery;
  /** Top-level charts (subcharts render with their parent). */
  readonly topLevel: readonly Chart[];
}

/** The charts among the collected files; packaged subcharts are listed from each chart's `charts/` folder. */
export function chartsIn(sources: readonly SourceText[], options: HelmOptions & { readonly namespace?: string }): ChartsFound {
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
  const discovery = discoverCharts(uris, (u) => texts.get(u), {
    namespace: options.helmNamespace ?? options.namespace ?? 'default',
    valuesFiles: options.helmValues,
  });
  return { discovery, topLevel: discovery.charts.filter((c) => !c.parent) };
}

/** A usage problem with `--helm PATH`: it must name an executable file. */
export function helmOptionError(options: HelmOptions): string | undefined {
  if (options.helm !== undefined && !findHelm(options.helm, {})) return `--helm ${options.helm} is not an executable file`;
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
export function renderCharts(found: ChartsFound, sources: readonly SourceText[], options: HelmOptions, env: Readonly<Record<string, string | undefined>>, progress?: Progress): ChartRenders {
  if (!found.topLevel.length) return { units: [], problems: [] };
  const helm = findHelm(options.helm, env);
  if (!helm) return { units: [], problems: found.topLevel.map(helmMissingProblem) };
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  // helm reads no link leading outside the current folder and the folder analysed (workspace/helm.ts
  // outsideWorkspace); --helm-values
  // files are the user's own choice, read wherever they are
  const run = { helm, timeoutMs: defaultHelmTimeoutMs, pathOf: (uri: string) => uri, roots: [process.cwd(), commonFolder(found.topLevel.map((c) => resolve(c.root)))], valuesAnywhere: true };
  // helm is CPU-bound: as many renders at once as there are cores, at most four
  const units = renderChartsSync(found.topLevel, found.discovery.charts, run, (u) => texts.get(u), Math.min(4, availableParallelism()), progress?.lineForChild('Helm releases rendered'));
  return { helm, units, problems: [] };
}
