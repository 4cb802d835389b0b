// PATH arguments and flags → one Analysis over every manifest found, plus what the summary line reports.
// Files under a Helm chart's templates/ are never read as manifests (they are not YAML until rendered).

import { analyzeTexts, type AnalyzeOptions, type SourceText } from '../features/analyzeTexts';
import { messages } from '../l10n/l10n';
import type { AnalysisConfig } from '../model/config';
import type { FileReader } from '../kustomize/render';
import { diskReader } from '../workspace/diskReader';
import { collectFiles, isCollectError, type CollectError } from './collectFiles';
import type { Analysis } from './featureTypes';
import { chartsIn, type ChartsFound } from './helmCharts';
import type { AnalysisOptions, HelmOptions } from './parseArgs';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultKustomizeTimeoutMs, buildAllWithKustomizeSync, buildWithKustomizeSync, kustomizeForSettings } from '../workspace/kustomizeBinary';
import { rootMatcher } from '../workspace/kustomizeRoots';
import { globMatcher } from '../workspace/glob';
import { configFileName } from '../model/configFile';
import type { KustomizeOptions } from '../kustomize/applyUnits';
import type { Progress } from './progress';

export interface AnalyzedPaths {
  readonly analysis: Analysis;
  /** Every file read (chart templates included): what findings are shown against. */
  readonly sources: readonly SourceText[];
  /** The files analysed as manifests: `sources` without chart templates. */
  readonly manifests: readonly SourceText[];
  readonly config: Partial<AnalysisConfig>;
  readonly charts: ChartsFound;
  /** Reads, for Kustomize builds, files the walk did not collect (kept in `sources` once read). */
  readonly readOther: FileReader;
  /**
   * The options of the analysis (the reader, and the Kustomize roots, tool and load restrictor): a later analysis of
   * the same paths (with chart renders) must use them too, or roots only the real Kustomize builds go unchecked.
   */
  readonly analysisOptions: AnalyzeOptions;
  readonly notes: readonly string[];
  /** The counts of `analysis`. */
  readonly counts: FileCounts;
  /** The same counts from another analysis of `manifests`, one with the chart renders `renders` added. */
  readonly countsOf: (analysis: Analysis, renders: ReadonlySet<string>) => FileCounts;
}

export interface FileCounts {
  readonly files: number;
  /** Helm/Go-template files: not YAML until rendered, so passed over whole. */
  readonly templates: number;
  /** Files of test suites (chainsaw, kuttl, Go testdata): a test harness applies them, so not read as objects. */
  readonly testSuites?: number;
  readonly tooLarge: number;
  /** Value sets of charts rendered with helm, and charts not rendered (no helm, a missing dependency, an error). */
  readonly rendered?: number;
  readonly notRendered?: number;
}

/**
 * The roots `--kustomize-root` names (relative to each folder PATH, else the current folder), and the real Kustomize
 * for what is not evaluated natively (`--kustomize PATH`, else kustomize or kubectl on PATH).
 */
function kustomizeOptions(options: AnalysisOptions, reader: FileReader, progress?: Progress): KustomizeOptions {
  const folders = options.paths.map((p) => resolve(p)).filter((p) => existsSync(p) && statSync(p).isDirectory());
  // roots the config file names are relative to its folder; those of --kustomize-root to each folder PATH
  const isRoot = rootMatcher(options.kustomizeRoots ?? [], options.kustomizeRootsDir ? [options.kustomizeRootsDir] : folders.length ? folders : [resolve('.')]);
  const loadRestrictor = options.loadRestrictor ?? 'rootOnly';
  const tool = kustomizeForSettings(
    { roots: [], folders: [], path: options.kustomize, timeoutMs: options.kustomizeTimeoutMs ?? defaultKustomizeTimeoutMs, allowed: true, loadRestrictor },
    process.env,
  );
  // paths in messages as the command line shows them: relative to the current folder, never absolute
  const cwd = resolve('.');
  const shown = (uri: string) =>
    relative(cwd, uri.startsWith('file:') ? fileURLToPath(uri) : resolve(uri))
      .split(sep)
      .join('/') || '.';
  const msg = messages(options.locale);
  // the words after the count (`3/40 Kustomize roots rendered`)
  const onRendered = progress && ((done: number, total: number) => progress.count(msg('Kustomize roots rendered'), done, total));
  if (!tool) return { isRoot, loadRestrictor, shown, onRendered };
  // the real builds are CPU-bound: as many at once as there are cores, at most four (as helm's renders)
  const parallel = Math.min(4, availableParallelism());
  return {
    isRoot,
    loadRestrictor,
    shown,
    external: (native, parsed) => buildWithKustomizeSync(tool, native, reader, parsed),
    externalAll: (natives, parsed) =>
      buildAllWithKustomizeSync(
        tool,
        natives,
        reader,
        parsed,
        parallel,
        progress?.lineForChild(msg('Kustomize roots built with {0}', tool.kubectl ? 'kubectl kustomize' : 'kustomize')),
      ),
    onRendered,
  };
}

/** The config file's `files.include` and `files.exclude`, over paths relative to its folder. */
function fileFilter(c: NonNullable<AnalysisOptions['fromConfig']>): (s: SourceText) => boolean {
  const include = c.include?.length ? globMatcher(c.include) : undefined;
  const exclude = c.exclude?.length ? globMatcher(c.exclude) : undefined;
  return (s) => {
    const rel = relative(c.dir, resolve(s.uri)).split(sep).join('/');
    if (rel.startsWith('../')) return true;
    return (!include || include(rel)) && (!exclude || !exclude(rel));
  };
}

export function analyzePaths(options: AnalysisOptions & HelmOptions, progress?: Progress): AnalyzedPaths | CollectError {
  // a usage error, as for --helm: a named Kustomize that cannot run is not silently replaced by the one on PATH
  if (
    options.kustomize !== undefined &&
    !kustomizeForSettings(
      { roots: [], folders: [], path: options.kustomize, timeoutMs: defaultKustomizeTimeoutMs, allowed: true, loadRestrictor: 'rootOnly' },
      {},
    )
  ) {
    const msg = messages(options.locale);
    return { error: msg('--kustomize {0} is not an executable file', options.kustomize) };
  }
  const walked = collectFiles(options.paths, messages(options.locale));
  if (isCollectError(walked)) return walked;
  // the config file is no manifest; the config's files.include and files.exclude choose among the rest
  const own = (s: SourceText) => !s.uri.endsWith(`/${configFileName}`) && s.uri !== configFileName;
  const filter = options.fromConfig && fileFilter(options.fromConfig);
  const collected = { ...walked, sources: walked.sources.filter((s) => own(s) && (!filter || filter(s))) };
  const config: Partial<AnalysisConfig> = {
    ...(options.clusterDomain !== undefined && { clusterDomain: options.clusterDomain }),
    ...(options.namespace !== undefined && { defaultNamespace: options.namespace }),
    ...(options.fromConfig?.rules && { rules: options.fromConfig.rules }),
    ...(options.fromConfig?.nodePortRange && { nodePortRange: options.fromConfig.nodePortRange }),
    ...(options.fromConfig?.ingressController && { ingressController: options.fromConfig.ingressController }),
    ...(options.locale && options.locale !== 'en' && { locale: options.locale }),
  };
  // A Kustomize build may read files the walk did not collect (env files, a base outside PATH): read from disk, and
  // kept so findings on them get line numbers.
  const disk = diskReader;
  const extra = new Map<string, string>();
  const readOther: FileReader = {
    read: (uri: string) => {
      const text = disk.read(uri);
      if (text !== undefined) extra.set(uri, text);
      return text;
    },
    list: (dir: string) => disk.list(dir),
    realUri: (uri: string) => disk.realUri?.(uri),
  };
  const charts = chartsIn(collected.sources, options);
  const manifests = collected.sources.filter((s) => !charts.discovery.templates.has(s.uri));
  const analysisOptions: AnalyzeOptions = { readOther, kustomize: kustomizeOptions(options, readOther, progress) };
  // Analysed when first asked: with charts that render, `check`, `dns` and `trace` analyse the manifests once, with
  // the renders (cli/chartFindings.ts), and never this analysis without them (it would build every Kustomize root twice).
  let analysis: Analysis | undefined;
  const analysisOf = () => (analysis ??= analyzeTexts(manifests, config, analysisOptions));
  const countsOf = (a: Analysis, renders: ReadonlySet<string>): FileCounts => {
    const own = renders.size ? a.cluster.files.filter((f) => !renders.has(f.uri)) : a.cluster.files;
    const templates = own.filter((f) => f.skipped === 'template').length + charts.discovery.templates.size;
    const testSuites = own.filter((f) => f.skipped === 'test-suite').length;
    return { files: collected.sources.length, templates, ...(testSuites && { testSuites }), tooLarge: collected.tooLarge };
  };
  const known = new Set(collected.sources.map((s) => s.uri));
  return {
    get analysis() {
      return analysisOf();
    },
    // read lazily: a later analysis (with chart renders) may read more through readOther
    get sources() {
      return [...collected.sources, ...[...extra].filter(([uri]) => !known.has(uri)).map(([uri, text]) => ({ uri, text }))];
    },
    manifests,
    config,
    charts,
    readOther,
    analysisOptions,
    notes: [...collected.notes, ...charts.notes, ...charts.unmatched],
    get counts() {
      return countsOf(analysisOf(), new Set());
    },
    countsOf,
  };
}
