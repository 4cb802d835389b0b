// `kube-netlens build DIR`: the objects the kustomization in DIR builds (kustomizeBuild.ts), or those the Helm chart
// in DIR renders to, as `---`-separated YAML or one JSON array. A chart folder is recognised by its Chart.yaml; it is
// rendered with --helm-values files when given, else as the config file's first release of it (`helm.releases`,
// `--release NAME` for another), else with its values.yaml.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderedDocuments, renderedObjects } from '../model/helmMapping';
import { lineIndexMemo } from '../model/lineIndex';
import { collectFiles, isCollectError, maxFileBytes } from './collectFiles';
import { readBounded } from '../workspace/readBounded';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import { chartsIn, helmOptionError, renderCharts } from './helmCharts';
import { withConfigFile } from './configFile';
import { isKustomizationDir, kustomizeBuildCommand } from './kustomizeBuild';
import type { AnalysisOptions, BuildRequest } from './parseArgs';
import { messages, say } from '../l10n/l10n';

export function buildCommand(request: BuildRequest, terminal: Terminal): CommandResult {
  if (isKustomizationDir(request.dir)) return kustomizeBuildCommand(request);
  const msg = messages(request.locale);
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const chartYaml = join(request.dir, 'Chart.yaml');
  if (!existsSync(chartYaml))
    return failure(
      msg(
        '{0} is not a chart folder: it has no Chart.yaml, and it holds no kustomization (kustomization.yaml, kustomization.yml or Kustomization)',
        request.dir,
      ),
    );
  const options: AnalysisOptions = { paths: [request.dir], ...(request.config !== undefined && { config: request.config }) };
  const configured = withConfigFile(options);
  if ('error' in configured) return failure(configured.error);
  const collected = collectFiles([request.dir], msg);
  if (isCollectError(collected)) return failure(collected.error);
  const found = chartsIn(collected.sources, { ...request, fromConfig: configured.request.fromConfig });
  const chart = found.topLevel.find((c) => c.chartYaml === chartYaml);
  if (!chart) return failure(msg('{0} is not a Helm chart (it needs apiVersion v1 or v2 and a name)', chartYaml));
  // One value set: --helm-values files when given, else the release --release names or the config file's first release
  // of this chart, else the chart's values.yaml.
  const releases = chart.valueSets.filter((v) => v.id.startsWith('release '));
  // the releases of other charts are not this build's business (found.unmatched)
  const notes: string[] = [...found.notes];
  let valueSet = chart.valueSets[0];
  if (request.release !== undefined) {
    const named = releases.find((v) => v.release === request.release);
    if (!named)
      return failure(
        releases.length
          ? msg("--release {0}: the config file's releases of this chart are {1}", request.release, releases.map((v) => v.release).join(', '))
          : msg('--release {0}: the config file names no release of the chart {1}', request.release, request.dir),
      );
    valueSet = named;
  } else if (releases.length) {
    valueSet = releases[0];
    notes.push(
      releases.length > 1
        ? msg(
            "rendered the config file's release {0} (the others: {1}; --release NAME renders one of them)",
            valueSet.release,
            releases
              .slice(1)
              .map((v) => v.release)
              .join(', '),
          )
        : msg("rendered the config file's release {0}", valueSet.release),
    );
  }
  const only = { ...found, topLevel: [{ ...chart, valueSets: [valueSet] }] };
  const renders = renderCharts(only, collected.sources, request, terminal.env);
  const unit = renders.units[0];
  const problems = [...renders.problems, ...(unit?.problems ?? [])];
  const texts = new Map(collected.sources.map((s) => [s.uri, s.text]));
  const lines = lineIndexMemo();
  const where = (uri: string, offset: number) => {
    const p = lines.of(uri, texts.get(uri) ?? readIfAny(uri)).positionAt(offset);
    return `${uri}:${p.line + 1}:${p.character + 1}`;
  };
  const stderr = [
    ...collected.notes.map(note),
    ...notes.map(note),
    ...problems.map((p) => note(`${where(p.uri, p.span.start)}: ${(p.phrase ? say(p.phrase, msg) : p.message).replace(/\n/g, '\n    ')}`)),
  ];
  if (!unit?.rendered) return { exitCode: 2, stdout: '', stderr };
  const stdout =
    request.format === 'json' ? JSON.stringify(renderedObjects(unit.rendered.text), null, 2) + '\n' : renderedDocuments(unit.rendered.text).join('');
  return { exitCode: 0, stdout, stderr };
}

function readIfAny(path: string): string {
  const read = readBounded(path, { maxBytes: maxFileBytes });
  return read.ok ? read.text : '';
}
