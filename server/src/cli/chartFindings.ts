// `check` over a folder with Helm charts: each chart × value set is rendered and enters the analysis as a file of its
// own (an apply unit: model/project.ts keeps renders that define the same objects differently apart, as variants),
// next to the plain manifests. Findings on a render go to its template lines, one finding naming every value set
// that has it: the analysis's source map (project/sourceMap.ts) maps them, and the places of the trace.

import { messages } from '../l10n/l10n';
import { analyzeTexts } from '../features/analyzeTexts';
import { diagnosticsFor } from '../features/diagnostics';
import { findingsOfProblems } from '../project/helmFindings';
import { sourceMapOf, type HelmRender, type SourceMap } from '../project/sourceMap';
import { lineIndexesOf } from '../model/lineIndex';
import { isInFolder, renderUri } from '../model/helmCharts';
import { withDefaults } from '../model/config';
import type { AnalyzedPaths, FileCounts } from './analyzePaths';
import type { Analysis, Finding } from './featureTypes';
import { renderCharts } from './helmCharts';
import type { HelmOptions } from './parseArgs';
import type { Progress } from './progress';

export interface ChartCheck {
  readonly findings: readonly Finding[];
  readonly counts: FileCounts;
  /** The analysis the findings come from: the plain manifests and every render. */
  readonly analysis: Analysis;
}

/** The charts under the PATH arguments rendered, and one analysis of the plain manifests with every render. */
export interface ChartAnalysis {
  readonly analysis: Analysis;
  /** Maps findings and places on every render of the analysis (Kustomize builds, Helm renders) to their sources. */
  readonly sourceMap: SourceMap;
  /** Problems of charts not rendered (no helm, a missing dependency, helm's error), as findings. */
  readonly problems: readonly Finding[];
  readonly counts: FileCounts;
}

export function analyzeWithCharts(
  loaded: AnalyzedPaths,
  options: HelmOptions,
  env: Readonly<Record<string, string | undefined>>,
  progress?: Progress,
): ChartAnalysis {
  const { topLevel, discovery } = loaded.charts;
  if (!topLevel.length) return { analysis: loaded.analysis, sourceMap: sourceMapIn(loaded, loaded.analysis, noRenders), problems: [], counts: loaded.counts };
  const renders = renderCharts(loaded.charts, loaded.sources, options, env, progress);
  // the configured severities (the analysis's config is these defaults over loaded.config, features/analyzeTexts.ts)
  const problems = findingsOfProblems(
    [...renders.problems, ...renders.units.flatMap((u) => u.problems)],
    withDefaults(loaded.config).rules,
    // loaded.config, never loaded.analysis: reading that analyses every manifest (and builds every Kustomize root)
    // without the renders, only to be analysed again with them below
    messages(loaded.config.locale),
  );
  const units = renders.units.flatMap((unit) => {
    const chart = discovery.charts.find((c) => c.chartYaml === unit.definedBy)!;
    const valueSet = chart.valueSets.find((v) => unit.id === `helm:${chart.root}#${v.id}`)!;
    return unit.rendered ? [{ unit, chart, valueSet, uri: renderUri(chart, valueSet) }] : [];
  });
  const analysis = units.length
    ? analyzeTexts(
        [
          ...loaded.manifests,
          ...units.map((u) => ({
            uri: u.uri,
            text: u.unit.rendered!.text,
            defaultNamespace: u.valueSet.namespace,
            clusterDependences: u.unit.clusterDependences,
          })),
        ],
        loaded.config,
        loaded.analysisOptions,
      )
    : loaded.analysis;
  const counts = units.length ? loaded.countsOf(analysis, new Set(units.map((u) => u.uri))) : loaded.counts;
  const renderedCharts = new Set(units.map((u) => u.chart.root));
  // templates of charts that rendered are not skipped; the others' are
  const renderedTemplates = [...discovery.templates].filter((t) => [...renderedCharts].some((r) => isInFolder(r, t))).length;
  const rendered = new Map(units.map((u) => [u.uri, { chart: u.chart, valueSet: u.valueSet, unit: u.unit }]));
  return {
    analysis,
    sourceMap: sourceMapIn(loaded, analysis, rendered),
    problems,
    counts: {
      ...counts,
      templates: counts.templates - renderedTemplates,
      rendered: units.length,
      notRendered: topLevel.filter((c) => !renderedCharts.has(c.root)).length,
    },
  };
}

export function checkWithCharts(
  loaded: AnalyzedPaths,
  options: HelmOptions,
  env: Readonly<Record<string, string | undefined>>,
  progress?: Progress,
): ChartCheck {
  const a = analyzeWithCharts(loaded, options, env, progress);
  return { findings: [...a.sourceMap.findings(diagnosticsFor(a.analysis)), ...a.problems], counts: a.counts, analysis: a.analysis };
}

const noRenders: ReadonlyMap<string, HelmRender> = new Map();

/** The source map of an analysis of the files read, with the lines of those files (a base and a template are among them). */
function sourceMapIn(loaded: AnalyzedPaths, analysis: Analysis, renders: ReadonlyMap<string, HelmRender>): SourceMap {
  let linesOf: ReturnType<typeof lineIndexesOf> | undefined;
  let texts: ReadonlySet<string> | undefined;
  return sourceMapOf({
    analysis,
    renders,
    lines: (uri) => {
      texts ??= new Set(loaded.sources.map((s) => s.uri));
      return texts.has(uri) ? (linesOf ??= lineIndexesOf(loaded.sources))(uri) : undefined;
    },
  });
}
