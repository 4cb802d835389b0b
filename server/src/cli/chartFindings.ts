// `check` over a folder with Helm charts: each chart × value set is rendered and analysed together with the plain
// manifests; findings on a render go to its template lines (one finding naming every value set that has it), and a
// finding on a plain manifest is kept only when every render agrees (a chart may supply what it lacks).

import { analyzeTexts } from '../features/analyzeTexts';
import { diagnosticsFor } from '../features/diagnostics';
import { findingOfProblem, mapRenderedFindings, type RenderedFindings } from '../features/renderedFindings';
import type { AnalyzedPaths, FileCounts } from './analyzePaths';
import type { Finding } from './featureTypes';
import { renderCharts } from './helmCharts';
import type { HelmOptions } from './parseArgs';

export interface ChartCheck {
  readonly findings: readonly Finding[];
  readonly counts: FileCounts;
}

export function checkWithCharts(loaded: AnalyzedPaths, options: HelmOptions, env: Readonly<Record<string, string | undefined>>): ChartCheck {
  const plain = diagnosticsFor(loaded.analysis);
  const { topLevel, discovery } = loaded.charts;
  if (!topLevel.length) return { findings: plain, counts: loaded.counts };
  const renders = renderCharts(loaded.charts, loaded.sources, options, env);
  const problems = [...renders.problems, ...renders.units.flatMap((u) => u.problems)].map(findingOfProblem);
  const rendered = renders.units.filter((u) => u.rendered);
  const perUnit: RenderedFindings[] = [];
  let agreed = new Set(plain.map(keyOf));
  for (const unit of rendered) {
    const chart = discovery.charts.find((c) => c.chartYaml === unit.definedBy)!;
    const valueSet = chart.valueSets.find((v) => unit.id === `helm:${chart.root}#${v.id}`)!;
    const renderedUri = unit.id;
    const analysis = analyzeTexts([...loaded.manifests, { uri: renderedUri, text: unit.rendered!.text, defaultNamespace: valueSet.namespace }], loaded.config);
    const findings = diagnosticsFor(analysis);
    const here = new Set(findings.filter((f) => f.uri !== renderedUri).map(keyOf));
    agreed = new Set([...agreed].filter((k) => here.has(k)));
    const context = valueSet.label.startsWith('release ') ? valueSet.label : `release ${valueSet.release}, ${valueSet.label}`;
    perUnit.push({ renderedUri, rendered: unit.rendered!, context, fallbackUri: chart.chartYaml, findings });
  }
  const renderedCharts = new Set(rendered.map((u) => u.definedBy));
  // templates of charts that rendered are not skipped; the others' are
  const renderedRoots = topLevel.filter((c) => renderedCharts.has(c.chartYaml)).map((c) => `${c.root}/`);
  const renderedTemplates = [...discovery.templates].filter((t) => renderedRoots.some((r) => t.startsWith(r))).length;
  return {
    findings: [...plain.filter((f) => agreed.has(keyOf(f))), ...mapRenderedFindings(perUnit), ...problems],
    counts: { ...loaded.counts, templates: loaded.counts.templates - renderedTemplates, rendered: rendered.length, notRendered: topLevel.filter((c) => !renderedCharts.has(c.chartYaml)).length },
  };
}

function keyOf(f: Finding): string {
  return [f.code, f.uri, f.span.start, f.span.end, f.message].join('\u0000');
}
