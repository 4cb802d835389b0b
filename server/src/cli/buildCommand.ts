// `kube-netlens build CHART_DIR`: the objects a Helm chart renders to (values.yaml, or --helm-values files), as
// `---`-separated YAML or one JSON array. A chart folder is recognised by its Chart.yaml.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderedDocuments, renderedObjects } from '../model/helmMapping';
import { lineIndex } from '../model/lineIndex';
import { collectFiles, isCollectError } from './collectFiles';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import { chartsIn, helmOptionError, renderCharts } from './helmCharts';
import type { BuildRequest } from './parseArgs';

export function buildCommand(request: BuildRequest, terminal: Terminal): CommandResult {
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const chartYaml = join(request.dir, 'Chart.yaml');
  if (!existsSync(chartYaml)) return failure(`${request.dir} is not a chart folder: it has no Chart.yaml`);
  const collected = collectFiles([request.dir]);
  if (isCollectError(collected)) return failure(collected.error);
  const found = chartsIn(collected.sources, request);
  const chart = found.topLevel.find((c) => c.chartYaml === chartYaml);
  if (!chart) return failure(`${chartYaml} is not a Helm chart (it needs apiVersion v1 or v2 and a name)`);
  // One value set: --helm-values files when given, else the chart's values.yaml.
  const only = { ...found, topLevel: [{ ...chart, valueSets: chart.valueSets.slice(0, 1) }] };
  const renders = renderCharts(only, collected.sources, request, terminal.env);
  const unit = renders.units[0];
  const problems = [...renders.problems, ...(unit?.problems ?? [])];
  const texts = new Map(collected.sources.map((s) => [s.uri, s.text]));
  const where = (uri: string, offset: number) => {
    const p = lineIndex(texts.get(uri) ?? readIfAny(uri)).positionAt(offset);
    return `${uri}:${p.line + 1}:${p.character + 1}`;
  };
  const notes = [...collected.notes.map(note), ...problems.map((p) => note(`${where(p.uri, p.span.start)}: ${p.message.replace(/\n/g, '\n    ')}`))];
  if (!unit?.rendered) return { exitCode: 2, stdout: '', stderr: notes };
  const stdout = request.format === 'json' ? JSON.stringify(renderedObjects(unit.rendered.text), null, 2) + '\n' : renderedDocuments(unit.rendered.text).join('');
  return { exitCode: 0, stdout, stderr: notes };
}

function readIfAny(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
