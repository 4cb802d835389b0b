// From file texts and settings to one Analysis, in one call: what the CLI and the tests use.
// (The language server keeps the same steps incremental in workspace/.)

import { createAnalysis, type Analysis } from '../analysis/analysis';
import { rejectorFor } from '../analysis/validation/rejection';
import { buildCluster } from '../model/cluster';
import { withDefaults, type AnalysisConfig } from '../model/config';
import { parseFiles } from '../model/parseManifest';

export interface SourceText {
  readonly uri: string;
  readonly text: string;
  /** Namespace of this text's objects that set none (a Helm release's namespace); the config's otherwise. */
  readonly defaultNamespace?: string;
}

/** `fastPath: false` reads every file with the yaml library (tests run both parse paths and compare). */
export function analyzeTexts(sources: readonly SourceText[], config?: Partial<AnalysisConfig>, options: { readonly fastPath?: boolean } = {}): Analysis {
  const cfg = withDefaults(config);
  const files = parseFiles(sources, { defaultNamespace: cfg.defaultNamespace, fastPath: options.fastPath });
  return createAnalysis(buildCluster(files, undefined, rejectorFor(cfg)), cfg);
}
