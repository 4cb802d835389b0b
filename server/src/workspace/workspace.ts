// The server's only mutable state: the text of every manifest (disk contents with open-document overlays),
// one memoized parse per file, and the current settings. snapshot() turns them into an immutable Analysis,
// rebuilt lazily after a change; an edit reparses only the edited file.

import { createAnalysis, type Analysis } from '../analysis/analysis';
import { prepareReach } from '../analysis/reach';
import { rejectorFor } from '../analysis/validation/rejection';
import { buildCluster, fileObjectsIn } from '../model/cluster';
import { basename, discoverCharts, renderUri, type Chart, type ChartDiscovery, type ValueSet } from '../model/helmCharts';
import type { RenderedUnit } from '../model/rendered';
import { lineIndexMemo, type LineIndex } from '../model/lineIndex';
import { changesTestSuites, fileRoles, isProjectFile, type FileRole } from '../model/fileRoles';
import { buildInputFile, parseManifest, parseManifestAsync, type ManifestFile } from '../model/parseManifest';
import { kustomizeUnits, type KustomizeMemo } from '../kustomize/applyUnits';
import { nativeFailed } from '../kustomize/external';
import { isKustomizationUri, type FileReader } from '../kustomize/render';
import { diskReader, diskReaderWithin } from './diskReader';
import { rootMatcher } from './kustomizeRoots';
import { defaultSettings, type Settings } from './settings';

export type { LineIndex } from '../model/lineIndex';
export type { Span } from '../model/span';

export interface WorkspaceStats {
  readonly files: number;
  readonly resources: number;
  /** Helm and other Go-template files, skipped whole. */
  readonly skippedTemplates: number;
  /** Files of test suites (chainsaw, kuttl, Go testdata): a test harness applies them, so they are not read as objects. */
  readonly skippedTests: number;
  /** Kustomize build inputs (kustomizations, the patches and files they read): checked in each build, not on their own. */
  readonly skippedBuildInputs: number;
  /** Files skipped for size, nesting depth or binary content. */
  readonly skippedOther: number;
}

/** An immutable view of the workspace: what every request and every diagnostics pass reads. */
export interface Snapshot {
  /** Increases with every change to texts or settings. */
  readonly generation: number;
  readonly analysis: Analysis;
  /**
   * Analyses of the snapshots built before this one, newest first (a few): an incremental evaluation starts from
   * the newest one that was evaluated. Unchanged files keep their parsed objects, which is how changes are found.
   */
  readonly earlier: readonly Analysis[];
  readonly settings: Settings;
  text(uri: string): string | undefined;
  /** Offset ↔ line/character conversion for a file's text in this snapshot (memoized per text). */
  lines(uri: string): LineIndex | undefined;
  /** The editor's version of a document open when the snapshot was built; undefined for closed files (and files opened unchanged since). */
  documentVersion(uri: string): number | undefined;
  readonly stats: WorkspaceStats;
  /** The Helm charts of the workspace; their templates are never read as manifests (counted as skipped templates). */
  readonly charts: ChartDiscovery;
  /**
   * The rendered Helm releases, by the URI their text enters the analysis under (model/helmCharts.ts renderUri): a
   * file of its own, an apply unit the project model keeps apart from differing renders.
   */
  readonly renders: ReadonlyMap<string, ChartRender>;
  /** The latest renders of each chart (rendered or not), by chart root. */
  readonly chartUnits: ReadonlyMap<string, readonly RenderedUnit[]>;
  /** Every Kustomize root's unit as analysed (native, or built by the real Kustomize). */
  readonly kustomizeUnits: readonly RenderedUnit[];
  /** The native attempts of the roots it does not evaluate (what the real Kustomize may build). */
  readonly kustomizeWanted: readonly RenderedUnit[];
}

/** One rendered value set of a chart, as the analysis reads it. */
export interface ChartRender {
  readonly chart: Chart;
  readonly valueSet: ValueSet;
  readonly unit: RenderedUnit;
}

export interface Workspace {
  readonly settings: Settings;
  /** The generation the next snapshot has (it increases with every change): whether a snapshot is still the newest, without building one. */
  readonly generation: number;
  /** Applies new settings; returns true when the file-discovery options changed (the caller re-indexes). */
  setSettings(settings: Settings): boolean;
  setDiskText(uri: string, text: string): void;
  deleteDiskText(uri: string): void;
  /** Parses a text ahead of use (while a full index is still reading other files); changes nothing else. */
  prepare(uri: string, text: string): void;
  /**
   * `prepare` in slices (model/parseManifest.ts `parseManifestAsync`), awaiting `pause` between them; the parse is
   * kept only if nothing else parsed that URI meanwhile. Changes nothing else.
   */
  prepareAsync(uri: string, text: string, pause: () => Promise<void> | undefined): Promise<void>;
  /** Replaces every disk text and the too-large list at once (a full index). */
  replaceDisk(texts: ReadonlyMap<string, string>, tooLarge: readonly string[]): void;
  open(uri: string, text: string, version: number): void;
  change(uri: string, text: string, version: number): void;
  close(uri: string): void;
  isOpen(uri: string): boolean;
  /** Every URI with text (disk or open). */
  uris(): readonly string[];
  /**
   * Replaces the renders of one chart (its root): the rendered ones enter the analysis as files of their own. Renders
   * of charts that are no longer in the workspace are dropped by the next full list.
   */
  setChartRenders(root: string, renders: readonly { readonly chart: Chart; readonly valueSet: ValueSet; readonly unit: RenderedUnit }[]): void;
  /**
   * Replaces the builds by the real Kustomize, by root kustomization file: each stands in for the native attempt of
   * that root while the native renderer still does not evaluate it.
   */
  setKustomizeBuilds(builds: ReadonlyMap<string, RenderedUnit>): void;
  /**
   * Tells whether the real Kustomize will be run for these settings (the language server looks for the program). A
   * root whose native render failed is then pending until that build answers: its failure is reported only once the
   * real Kustomize confirms it (kustomize/external.ts confirmedUnit), never shown first and taken back.
   */
  setRealKustomize(runs: (settings: Settings['kustomize']) => boolean): void;
  snapshot(): Snapshot;
  /**
   * The snapshot to answer a request about one file with. While a large text (`heavyBytes` or more) of another file
   * changed since the last snapshot was built, that one, when it holds the same text of this file: the publishing
   * pass builds the next one, and a request never waits for it. Otherwise `snapshot()`.
   */
  snapshotFor(uri: string): Snapshot;
}

/** Texts at least this large make building the next snapshot the publishing pass's work (`snapshotFor`). */
export const heavyBytes = 64 * 1024;

interface Overlay {
  readonly text: string;
  readonly version: number;
}

/** How many earlier analyses a snapshot keeps (they share every unchanged file's parse). */
const keptAnalyses = 6;

function isChartFile(uri: string): boolean {
  const name = basename(uri);
  return name === 'Chart.yaml' || name === 'requirements.yaml';
}

export function createWorkspace(initial: Settings = defaultSettings): Workspace {
  let settings = initial;
  let disk = new Map<string, string>();
  let tooLarge: readonly string[] = [];
  const overlays = new Map<string, Overlay>();
  const parses = new Map<string, ManifestFile>();
  const lineIndexes = lineIndexMemo();
  let generation = 0;
  let current: Snapshot | undefined;
  /** The last snapshot built, and whether a large text changed since. */
  let last: Snapshot | undefined;
  let heavy = false;
  /**
   * The files of the last build, in URI order, with each URI's place. While no URI comes or goes, the next build
   * copies this list and re-reads only the URIs in `dirty` (an edit costs the files it touched, not a pass over all).
   * Whether any file is a kustomization is worked out with the list, so an edit does not ask every file again.
   */
  let layout: { readonly files: readonly ManifestFile[]; readonly place: ReadonlyMap<string, number>; readonly kustomizations: boolean } | undefined;
  const dirty = new Set<string>();
  /** Newest first; hovers and lenses build snapshots between two diagnostics passes, so one is not enough. */
  let history: readonly Analysis[] = [];
  let kustomizeMemo: KustomizeMemo | undefined;
  /** The files of the last snapshot with Kustomize builds among them, and each URI's place. */
  let unitsPlace: { readonly files: readonly ManifestFile[]; readonly place: ReadonlyMap<string, number> } | undefined;
  let kustomizeBuilds: ReadonlyMap<string, RenderedUnit> = new Map();
  let realKustomize: (settings: Settings['kustomize']) => boolean = () => false;
  const realKustomizeRuns = new WeakMap<Settings['kustomize'], boolean>();
  const runsReal = (k: Settings['kustomize']) => {
    let runs = realKustomizeRuns.get(k);
    if (runs === undefined) realKustomizeRuns.set(k, (runs = realKustomize(k)));
    return runs;
  };
  // Restricted Mode (an untrusted workspace): a build reads nothing outside the workspace folders
  let readerMemo: { readonly of: Settings['kustomize']; readonly reader: FileReader } | undefined;
  const readerOf = (k: Settings['kustomize']): FileReader => {
    if (readerMemo?.of === k) return readerMemo.reader;
    const reader = k.allowed ? diskReader : diskReaderWithin(k.folders);
    readerMemo = { of: k, reader };
    return reader;
  };
  let rootsMemo: { readonly of: Settings['kustomize']; readonly isRoot?: (dir: string) => boolean } | undefined;
  const isRootOf = (k: Settings['kustomize']) => {
    if (rootsMemo?.of !== k) rootsMemo = { of: k, isRoot: rootMatcher(k.roots, k.folders) };
    return rootsMemo.isRoot;
  };
  /** The charts as of the last full list; recomputed when URIs come or go, or a chart's own files change. */
  let charts: ChartDiscovery = { charts: [], templates: new Set() };
  /** Rendered releases by their render URI, and every chart's latest units by chart root. */
  let renders = new Map<string, ChartRender>();
  let chartUnits = new Map<string, readonly RenderedUnit[]>();

  const changed = (uri?: string) => {
    generation++;
    current = undefined;
    if (uri !== undefined && (textOf(uri)?.length ?? 0) >= heavyBytes) heavy = true;
    if (uri === undefined) layout = undefined;
    else if (!layout?.place.has(uri)) layout = undefined;
    else dirty.add(uri);
  };
  const textOf = (uri: string) => overlays.get(uri)?.text ?? disk.get(uri) ?? renders.get(uri)?.unit.rendered?.text;

  /** Kustomizations, patches and chart templates (model/fileRoles.ts), worked out again whenever the file list is. */
  let roles: ReadonlyMap<string, FileRole> = new Map();
  const parsedRoles = new Map<string, FileRole | undefined>();
  const parse = (uri: string, text: string): ManifestFile => {
    const memo = parses.get(uri);
    const role = roles.get(uri);
    // objects of a Helm release that name no namespace are in the release namespace
    const render = renders.get(uri);
    if (memo && memo.text === text && parsedRoles.get(uri) === role && memo.clusterDependences === render?.unit.clusterDependences) return memo;
    // The size limit holds for open documents too: a 45 MB document is not parsed (it counts as skipped for size in
    // the status bar), whatever the editor sends. A chart's render is the product's own output, not a file.
    const file =
      !render && text.length > settings.files.maxSizeKB * 1024
        ? { uri, text, resources: [], problems: [], skipped: 'too-large' as const, manifestDocuments: 0 }
        : role
          ? buildInputFile(uri, text, role)
          : withDependences(
              parseManifest(uri, text, { defaultNamespace: render?.valueSet.namespace ?? settings.analysis.defaultNamespace }),
              render?.unit.clusterDependences,
            );
    // What the API server would reject is worked out now, while the file's trees are cached (model/treeCache.ts):
    // building the cluster asks again, memoized per object, without parsing the file a second time.
    const rejects = rejectorFor(settings.analysis);
    for (const r of file.resources) rejects(r);
    parses.set(uri, file);
    parsedRoles.set(uri, role);
    return file;
  };

  const build = (): Snapshot => {
    let files: ManifestFile[] | undefined;
    if (layout) {
      files = [...layout.files];
      for (const uri of dirty) {
        const text = textOf(uri);
        // gone from disk and editor: the URI set changed after all; an edited kustomization or Chart.yaml can change
        // the role of other files, and so can an edit that makes a file a test (or no longer one)
        if (text === undefined || isProjectFile(uri) || changesTestSuites(uri, files[layout.place.get(uri)!].text, text)) files = undefined;
        if (!files) break;
        files[layout.place.get(uri)!] = parse(uri, text!);
      }
    }
    // An edit of a chart's own files (Chart.yaml, requirements.yaml) can change which files are templates.
    if ([...dirty].some(isChartFile)) files = undefined;
    dirty.clear();
    if (!files || !layout) {
      files = fullList();
      layout = { files, place: new Map(files.map((f, i) => [f.uri, i])), kustomizations: files.some((f) => isKustomizationUri(f.uri)) };
    } else {
      layout = { files, place: layout.place, kustomizations: layout.kustomizations };
    }
    // Kustomize roots become apply units (kustomize/applyUnits.ts); a root whose inputs did not change is not
    // rendered again. Files a build reads that the workspace does not list (env files) are read from disk.
    const wanted: RenderedUnit[] = [];
    // an edit of a workspace without kustomizations does not ask every file again
    const units = !layout.kustomizations
      ? { files, units: [], memo: undefined }
      : kustomizeUnits(files, settings.analysis.defaultNamespace, kustomizeMemo, readerOf(settings.kustomize), {
          isRoot: isRootOf(settings.kustomize),
          loadRestrictor: settings.kustomize.loadRestrictor,
          afterParse: rejectorFor(settings.analysis),
          external: (native) => {
            wanted.push(native);
            const built = kustomizeBuilds.get(native.definedBy);
            if (built) return built;
            // a native failure waits for the real Kustomize's answer: pending, its files unknown, nothing said yet
            return nativeFailed(native) && runsReal(settings.kustomize) ? { ...native, problems: [] } : undefined;
          },
        });
    kustomizeMemo = units.memo;
    if (units.files !== files) files = [...units.files];
    // the builds' files keep their places while the same URIs come out in the same order (an edit of a plain file)
    const place =
      units.files === layout.files
        ? layout.place
        : unitsPlace && sameUris(unitsPlace.files, files)
          ? unitsPlace.place
          : new Map(files.map((f, i) => [f.uri, i]));
    if (units.files !== layout.files) unitsPlace = { files, place };
    const list = files;
    const versions = new Map<string, number>();
    for (const [uri, o] of overlays) versions.set(uri, o.version);
    const analysis = createAnalysis(buildCluster(files, history[0]?.cluster, rejectorFor(settings.analysis)), settings.analysis, history[0]);
    // The reach indexes of a snapshot of one scope, made with it (analysis/reach.ts: a pass over the namespaces the
    // previous snapshot's shares do not cover), so no reach hover builds them; scopes of variants make theirs when asked.
    if (analysis.scopes().length === 1) prepareReach(analysis.cluster);
    const earlier = history;
    history = [analysis, ...history.slice(0, keptAnalyses - 1)];
    let resources = 0;
    let skippedTemplates = 0;
    let skippedTests = 0;
    let skippedBuildInputs = 0;
    let skippedOther = tooLarge.length;
    const text = (uri: string) => {
      const i = place.get(uri);
      return i === undefined ? undefined : list[i].text;
    };
    const rendersNow = renders;
    const unitsNow = chartUnits;
    for (const f of files) {
      resources += f.resources.length;
      if (f.skipped === 'template') skippedTemplates++;
      else if (f.skipped === 'test-suite') skippedTests++;
      else if (f.skipped === 'build-input') skippedBuildInputs++;
      else if (f.skipped) skippedOther++;
    }
    return {
      generation,
      analysis,
      earlier,
      settings,
      text,
      lines: (uri) => {
        const t = text(uri);
        return t === undefined ? undefined : lineIndexes.of(uri, t);
      },
      documentVersion: (uri) => versions.get(uri),
      stats: {
        files: files.length - rendersNow.size - files.filter((f) => f.rendered).length,
        resources,
        skippedTemplates,
        skippedTests,
        skippedBuildInputs,
        skippedOther,
      },
      charts,
      renders: rendersNow,
      chartUnits: unitsNow,
      kustomizeUnits: units.units,
      kustomizeWanted: wanted,
    };
  };

  /** Every URI with text, in order, parsed; memos of URIs that went away are dropped. */
  const fullList = (): ManifestFile[] => {
    const texts = new Map(disk);
    for (const [uri, o] of overlays) texts.set(uri, o.text);
    const renderTexts = new Map<string, string>();
    for (const [uri, r] of renders) if (r.unit.rendered) renderTexts.set(uri, r.unit.rendered.text);
    charts = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: settings.analysis.defaultNamespace, releases: settings.helm.releases });
    // renders of charts that went away go too
    const roots = new Set(charts.charts.map((c) => c.root));
    for (const [uri, r] of renders) if (!roots.has(r.chart.root)) renderTexts.delete(uri);
    if (renderTexts.size !== [...renders.values()].filter((r) => r.unit.rendered).length || [...chartUnits.keys()].some((r) => !roots.has(r))) {
      renders = new Map([...renders].filter(([uri]) => renderTexts.has(uri)));
      chartUnits = new Map([...chartUnits].filter(([root]) => roots.has(root)));
    }
    roles = fileRoles([...texts.keys()], (uri) => texts.get(uri));
    for (const [uri, text] of renderTexts) texts.set(uri, text);
    for (const uri of parses.keys()) {
      if (texts.has(uri)) continue;
      parses.delete(uri);
      parsedRoles.delete(uri);
    }
    lineIndexes.prune((uri) => texts.has(uri));
    const uris = [...texts.keys()].sort();
    return uris.map((u) => parse(u, texts.get(u)!));
  };

  return {
    get settings() {
      return settings;
    },
    get generation() {
      return generation;
    },
    setSettings(next) {
      const filesChanged = JSON.stringify(next.files) !== JSON.stringify(settings.files);
      // The default namespace is read while parsing, so every memoized parse is stale.
      // So is the size limit's verdict.
      if (next.analysis.defaultNamespace !== settings.analysis.defaultNamespace || next.files.maxSizeKB !== settings.files.maxSizeKB) parses.clear();
      settings = next;
      changed();
      return filesChanged;
    },
    setDiskText(uri, text) {
      if (disk.get(uri) === text) return;
      disk.set(uri, text);
      if (!overlays.has(uri)) changed(uri);
    },
    deleteDiskText(uri) {
      if (!disk.delete(uri)) return;
      if (!overlays.has(uri)) changed();
    },
    prepare(uri, text) {
      parse(uri, text);
    },
    async prepareAsync(uri, text, pause) {
      const role = roles.get(uri);
      if (role || renders.has(uri) || text.length > settings.files.maxSizeKB * 1024) return; // parse() does these
      const memo = parses.get(uri);
      if (memo && memo.text === text && parsedRoles.get(uri) === role) return;
      const namespace = settings.analysis.defaultNamespace;
      const file = await parseManifestAsync(uri, text, { defaultNamespace: namespace }, pause);
      // What the API server would reject is worked out now too, in slices (memoized per object), and the file's
      // share of the cluster (memoized per file): building the cluster from this file then costs neither.
      const rejects = rejectorFor(settings.analysis);
      if (file.resources.length) fileObjectsIn(file, file.resources[0].namespace);
      for (const r of file.resources) {
        rejects(r);
        const p = pause();
        if (p) await p;
      }
      // Settings or roles that changed meanwhile make this parse stale; parse() will do it again.
      if (settings.analysis.defaultNamespace !== namespace || roles.get(uri) !== role || parses.get(uri) !== memo) return;
      parses.set(uri, file);
      parsedRoles.set(uri, role);
    },
    replaceDisk(texts, large) {
      disk = new Map(texts);
      tooLarge = [...large];
      changed();
    },
    open(uri, text, version) {
      const same = !overlays.has(uri) && disk.get(uri) === text;
      overlays.set(uri, { text, version });
      // Opening a file whose text is already indexed changes nothing: no re-analysis.
      if (!same) changed(uri);
    },
    change(uri, text, version) {
      const before = overlays.get(uri)?.text;
      overlays.set(uri, { text, version });
      if (before !== text) changed(uri);
    },
    close(uri) {
      const o = overlays.get(uri);
      if (!o) return;
      overlays.delete(uri);
      if (disk.get(uri) !== o.text) changed(disk.has(uri) ? uri : undefined);
    },
    setChartRenders(root, list) {
      const next = new Map([...renders].filter(([, r]) => r.chart.root !== root));
      for (const r of list) if (r.unit.rendered) next.set(renderUri(r.chart, r.valueSet), { chart: r.chart, valueSet: r.valueSet, unit: r.unit });
      const before = [...renders].filter(([, r]) => r.chart.root === root);
      const after = [...next].filter(([, r]) => r.chart.root === root);
      const sameUris = before.length === after.length && before.every(([uri]) => next.has(uri));
      renders = next;
      chartUnits = new Map(chartUnits).set(
        root,
        list.map((r) => r.unit),
      );
      if (!sameUris) changed();
      else {
        let any = false;
        for (const [uri, r] of before) {
          const now = next.get(uri)!;
          // a namespace change re-reads the text under the other namespace
          if (now.unit.rendered!.text !== r.unit.rendered!.text || now.valueSet.namespace !== r.valueSet.namespace) {
            parses.delete(uri);
            changed(uri);
            any = true;
          }
        }
        // the units' problems changed even when no text did: a new snapshot, the same files
        if (!any) {
          generation++;
          current = undefined;
        }
      }
    },
    setKustomizeBuilds(builds) {
      kustomizeBuilds = builds;
      generation++;
      current = undefined;
    },
    setRealKustomize(runs) {
      realKustomize = runs;
      generation++;
      current = undefined;
    },
    isOpen: (uri) => overlays.has(uri),
    uris: () => [...new Set([...disk.keys(), ...overlays.keys()])].sort(),
    snapshot() {
      if (!current) {
        current = last = build();
        heavy = false;
      }
      return current;
    },
    snapshotFor(uri) {
      if (!current && heavy && last && last.text(uri) === textOf(uri)) return last;
      return this.snapshot();
    },
  };
}

/** A render's file with what its templates ask the cluster (analysis/unknowns.ts reads it). */
function withDependences(file: ManifestFile, dependences: RenderedUnit['clusterDependences']): ManifestFile {
  return dependences?.length ? { ...file, clusterDependences: dependences } : file;
}

function sameUris(a: readonly { readonly uri: string }[], b: readonly { readonly uri: string }[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].uri !== b[i].uri) return false;
  return true;
}
