// `check` over a folder with Helm charts: each chart × value set is rendered and enters the analysis as a file of its
// own (an apply unit: model/project.ts keeps renders that define the same objects differently apart, as variants),
// next to the plain manifests. Findings on a render go to its template lines, one finding naming every value set
// that has it (features/renderedFindings.ts).

import { messages } from '../l10n/l10n';
import { analyzeTexts } from '../features/analyzeTexts';
import { diagnosticsFor } from '../features/diagnostics';
import { findingsOfProblems, mapFindings, valueSetContext, type RenderedFindings } from '../features/renderedFindings';
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
  /** The renders that entered it, as their findings and places are mapped back. */
  readonly units: readonly RenderedFindingsSource[];
  /** Problems of charts not rendered (no helm, a missing dependency, helm's error), as findings. */
  readonly problems: readonly Finding[];
  readonly counts: FileCounts;
}

export type RenderedFindingsSource = Omit<RenderedFindings, 'findings'>;

export function analyzeWithCharts(
  loaded: AnalyzedPaths,
  options: HelmOptions,
  env: Readonly<Record<string, string | undefined>>,
  progress?: Progress,
): ChartAnalysis {
  const { topLevel, discovery } = loaded.charts;
  if (!topLevel.length) return { analysis: loaded.analysis, units: [], problems: [], counts: loaded.counts };
  const renders = renderCharts(loaded.charts, loaded.sources, options, env, progress);
  // the configured severities (the analysis's config is these defaults over loaded.config, features/analyzeTexts.ts)
  const problems = findingsOfProblems(
    [...renders.problems, ...renders.units.flatMap((u) => u.problems)],
    withDefaults(loaded.config).rules,
    messages(loaded.analysis.config.locale),
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
  return {
    analysis,
    units: units.map((u) => ({
      renderedUri: u.uri,
      rendered: u.unit.rendered!,
      context: valueSetContext(u.valueSet),
      fallbackUri: u.chart.chartYaml,
    })),
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
  return {
    findings: [...mapFindings(diagnosticsFor(a.analysis), a.units, messages(a.analysis.config.locale)), ...a.problems],
    counts: a.counts,
    analysis: a.analysis,
  };
}
