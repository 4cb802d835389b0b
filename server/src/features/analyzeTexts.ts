// From file texts and settings to one Analysis, in one call: what the CLI and the tests use.
// (The language server keeps the same steps incremental in workspace/.)

import { createAnalysis, type Analysis } from '../analysis/analysis';
import { rejectorFor } from '../analysis/validation/rejection';
import { buildCluster } from '../model/cluster';
import { withDefaults, type AnalysisConfig } from '../model/config';
import { kustomizeUnits, type KustomizeOptions } from '../kustomize/applyUnits';
import type { FileReader } from '../kustomize/render';
import type { ClusterDependence } from '../model/helmLookups';
import { parseFiles } from '../model/parseManifest';

export interface SourceText {
  readonly uri: string;
  readonly text: string;
  /** Namespace of this text's objects that set none (a Helm release's namespace); the config's otherwise. */
  readonly defaultNamespace?: string;
  /** A Helm render's dependences on the cluster (model/helmLookups.ts). */
  readonly clusterDependences?: readonly ClusterDependence[];
}

/**
 * `fastPath: false` reads every file with the yaml library (tests run both parse paths and compare). `readOther` reads the files a Kustomize build needs that `sources` do not hold (env files, bases outside the
 * analysed paths); without it they count as missing.
 */
/** How texts are analysed beyond the config: the fast parser, the reader of files a build reads, the Kustomize options. */
export interface AnalyzeOptions {
  readonly fastPath?: boolean;
  readonly readOther?: FileReader;
  readonly kustomize?: KustomizeOptions;
}

export function analyzeTexts(sources: readonly SourceText[], config?: Partial<AnalysisConfig>, options: AnalyzeOptions = {}): Analysis {
  const cfg = withDefaults(config);
  // Each object is validated as soon as its file is read, while its trees are at hand (the cluster then asks again, memoized).
  const rejects = rejectorFor(cfg);
  const parsed = parseFiles(sources, { defaultNamespace: cfg.defaultNamespace, fastPath: options.fastPath }, rejects);
  // Kustomize roots are apply units: their builds replace the files they read (kustomize/applyUnits.ts).
  const files = kustomizeUnits(parsed, cfg.defaultNamespace, undefined, options.readOther, { ...options.kustomize, afterParse: rejects }).files;
  return createAnalysis(buildCluster(files, undefined, rejects), cfg);
}
