// PATH arguments and flags → one Analysis over every manifest found, plus what the summary line reports.

import { analyzeTexts, type SourceText } from '../features/analyzeTexts';
import type { AnalysisConfig } from '../model/config';
import { nodeFileReader } from './buildCommand';
import { collectFiles, isCollectError, type CollectError } from './collectFiles';
import type { Analysis } from './featureTypes';
import type { AnalysisOptions } from './parseArgs';

export interface AnalyzedPaths {
  readonly analysis: Analysis;
  readonly sources: readonly SourceText[];
  readonly notes: readonly string[];
  readonly counts: FileCounts;
}

export interface FileCounts {
  readonly files: number;
  /** Helm/Go-template files: not YAML until rendered, so passed over whole. */
  readonly templates: number;
  readonly tooLarge: number;
}

export function analyzePaths(options: AnalysisOptions): AnalyzedPaths | CollectError {
  const collected = collectFiles(options.paths);
  if (isCollectError(collected)) return collected;
  const config: Partial<AnalysisConfig> = {
    ...(options.clusterDomain !== undefined && { clusterDomain: options.clusterDomain }),
    ...(options.namespace !== undefined && { defaultNamespace: options.namespace }),
  };
  // A Kustomize build may read files the walk did not collect (env files, a base outside PATH): read from disk, and
  // kept so findings on them get line numbers.
  const disk = nodeFileReader();
  const extra = new Map<string, string>();
  const readOther = {
    read: (uri: string) => {
      const text = disk.read(uri);
      if (text !== undefined) extra.set(uri, text);
      return text;
    },
    list: (dir: string) => disk.list(dir),
  };
  const analysis = analyzeTexts(collected.sources, config, { readOther });
  const known = new Set(collected.sources.map((s) => s.uri));
  const sources = [...collected.sources, ...[...extra].filter(([uri]) => !known.has(uri)).map(([uri, text]) => ({ uri, text }))];
  const templates = analysis.cluster.files.filter((f) => f.skipped === 'template').length;
  return {
    analysis,
    sources,
    notes: collected.notes,
    counts: { files: collected.sources.length, templates, tooLarge: collected.tooLarge },
  };
}
