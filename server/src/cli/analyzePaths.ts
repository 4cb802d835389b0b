// PATH arguments and flags → one Analysis over every manifest found, plus what the summary line reports.
// Files under a Helm chart's templates/ are never read as manifests (they are not YAML until rendered).

import { analyzeTexts, type SourceText } from '../features/analyzeTexts';
import type { AnalysisConfig } from '../model/config';
import { collectFiles, isCollectError, type CollectError } from './collectFiles';
import type { Analysis } from './featureTypes';
import { chartsIn, type ChartsFound } from './helmCharts';
import type { AnalysisOptions, HelmOptions } from './parseArgs';

export interface AnalyzedPaths {
  readonly analysis: Analysis;
  /** Every file read (chart templates included): what findings are shown against. */
  readonly sources: readonly SourceText[];
  /** The files analysed as manifests: `sources` without chart templates. */
  readonly manifests: readonly SourceText[];
  readonly config: Partial<AnalysisConfig>;
  readonly charts: ChartsFound;
  readonly notes: readonly string[];
  readonly counts: FileCounts;
}

export interface FileCounts {
  readonly files: number;
  /** Helm/Go-template files: not YAML until rendered, so passed over whole. */
  readonly templates: number;
  readonly tooLarge: number;
  /** Value sets of charts rendered with helm, and charts not rendered (no helm, a missing dependency, an error). */
  readonly rendered?: number;
  readonly notRendered?: number;
}

export function analyzePaths(options: AnalysisOptions & HelmOptions): AnalyzedPaths | CollectError {
  const collected = collectFiles(options.paths);
  if (isCollectError(collected)) return collected;
  const config: Partial<AnalysisConfig> = {
    ...(options.clusterDomain !== undefined && { clusterDomain: options.clusterDomain }),
    ...(options.namespace !== undefined && { defaultNamespace: options.namespace }),
  };
  const charts = chartsIn(collected.sources, options);
  const manifests = collected.sources.filter((s) => !charts.discovery.templates.has(s.uri));
  const analysis = analyzeTexts(manifests, config);
  const templates = analysis.cluster.files.filter((f) => f.skipped === 'template').length + charts.discovery.templates.size;
  return {
    analysis,
    sources: collected.sources,
    manifests,
    config,
    charts,
    notes: collected.notes,
    counts: { files: collected.sources.length, templates, tooLarge: collected.tooLarge },
  };
}
