// Rendering a chart with the user's helm: `helm template <release> <chart> --namespace <ns> [-f values…] [--set …]`.
// Nothing that reaches the network is ever passed (no --dependency-update, no repository flags); a chart whose
// dependency is missing is not rendered; a render is killed after a timeout. helm's error becomes a problem on the
// template line it names, or on Chart.yaml. The caller decides whether helm may run at all (never in an untrusted
// workspace).

import { phrase, worded, type Phrase } from '../l10n/l10n';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { Chart, TextOf, ValueSet } from '../model/helmCharts';
import { relativeTo, rendersAlone, resolveUri, type ReleaseSetting } from '../model/helmCharts';

/** Whether a chart renders on its own (for lsp/, which imports no model module). */
export { rendersAlone };
import { chartClusterDependences } from '../model/helmLookups';
import { mapHelmOutput, templateUriOf } from '../model/helmMapping';
import type { RenderProblem, RenderedUnit } from '../model/rendered';
import type { Span } from '../model/span';
import { withWorkspacePaths } from '../kustomize/external';
import type { HelmSettings } from './settings';
import { isExecutable, onPath } from './executables';
import { canonicalUri, fileUri } from './uri';
import { runTool, runToolBatchSync, runToolSync, type BatchProgress, type ToolExit, type ToolRun } from './externalTool';

export const defaultHelmTimeoutMs = 10_000;
/**
 * helm's output beyond this is not read, and the render is not checked (a chart that renders this much is not
 * hand-written YAML; a render is parsed and kept like a file of its own).
 */
export const maxRenderBytes = 16 * 1024 * 1024;
const maxOutputBytes = maxRenderBytes;
/** A values file larger than this (helm would read and merge all of it) is not rendered; the workspace's default file cap. */
export const defaultMaxValuesBytes = 1024 * 1024;
/** Lines of helm's error shown in a finding. */
const errorLines = 5;

export interface HelmRun {
  /** The helm executable. */
  readonly helm: string;
  readonly timeoutMs: number;
  /** A workspace URI → the file system path helm reads (identity for the CLI's paths). */
  readonly pathOf: (uri: string) => string;
  /**
   * The workspace folders (file system paths): what helm may read. A chart holding a link that leads outside them is
   * not rendered, nor a value set with a values file outside them (outsideWorkspace). Undefined: not checked.
   */
  readonly roots?: readonly string[];
  /** Values files may lie anywhere (the CLI's --helm-values, named by the user); default: inside `roots`. */
  readonly valuesAnywhere?: boolean;
  /** Where the workspace's files are on disk, for those checks (a render from a temporary copy changes `pathOf`). */
  readonly sourcePathOf?: (uri: string) => string;
  /** Values files larger than this are not given to helm (default `defaultMaxValuesBytes`). */
  readonly maxValuesBytes?: number;
}

/** Entries of a chart folder looked at for links, at most (a larger chart is not rendered). */
const maxChartEntries = 20_000;

/**
 * Why helm must not render a value set: helm v3 reads a chart folder following links (pkg/chart/loader LoadDir walks
 * it with internal/sympath.Walk, which resolves each link and logs "Contents of linked file included and used"), and
 * `.Files.Get` puts what it read into the output; so a link in the chart that leads outside the workspace (`etc ->
 * /etc`) would bring the user's files into the analysis. A values file outside the workspace is refused the same way.
 * Paths in the message are relative to the workspace. Undefined: helm may run.
 */
function outsideWorkspace(chart: Chart, valueSet: ValueSet, run: HelmRun): RenderProblem | undefined {
  if (!run.roots) return undefined;
  const source = run.sourcePathOf ?? run.pathOf;
  const roots = run.roots.flatMap((r) => {
    try {
      return [realpathSync.native(r)];
    } catch {
      return [];
    }
  });
  const inside = (real: string) => roots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep));
  const shown = (p: string) => (roots.length ? relative(roots[0], p).split(sep).join('/') : p);
  const problem = (why: Phrase): RenderProblem =>
    chartNote(chart, 'warning', 'helm-not-rendered', phrase('Chart {0} is not rendered ({1}): {2}', chart.name, valueSet.label, why));
  if (!run.valuesAnywhere) {
    for (const f of valueSet.valuesFiles) {
      let real: string | undefined;
      try {
        real = realpathSync.native(source(f));
      } catch {
        real = undefined;
      }
      if (real !== undefined && !inside(real))
        return problem(phrase('the values file {0} lies outside the workspace, and helm is never given a file from outside it.', shown(real)));
    }
  }
  const top = source(chart.root);
  const stack = [top];
  let seen = 0;
  while (stack.length) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++seen > maxChartEntries)
        return problem(phrase('the chart folder holds more than {0} entries, too many to check for links leading out of the workspace.', maxChartEntries));
      const p = join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) {
        let real: string | undefined;
        try {
          real = realpathSync.native(p);
        } catch {
          real = undefined; // a dangling link: helm fails on it itself
        }
        if (real !== undefined && !inside(real))
          return problem(
            phrase('{0} is a link leading outside the workspace, and helm reads what links lead to (.Files included).', relative(top, p).split(sep).join('/')),
          );
      } else if (st.isDirectory()) stack.push(p);
    }
  }
  return undefined;
}

/** A helm run's exit; `tooLarge`: helm wrote more than `maxRenderBytes` and was stopped. */
export type HelmExit = ToolExit;

/** The helm executable: an explicit path (which must be executable), else `helm` on PATH; undefined when neither. */
export function findHelm(explicit: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (explicit) return isExecutable(explicit) ? explicit : undefined;
  return onPath('helm', env);
}

/**
 * The helm the language server may run: none in an untrusted workspace (`allowed` is false there, whatever the
 * settings say), else `kubeNetlens.helm.path` or `helm` on PATH.
 */
export function helmForSettings(settings: HelmSettings, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (!settings.allowed) return undefined;
  return findHelm(settings.path, env);
}

/** The arguments of one render. Only local files: no flag here can reach the network. */
export function helmArgs(chart: Chart, valueSet: ValueSet, pathOf: (uri: string) => string): string[] {
  const args = ['template', valueSet.release, pathOf(chart.root), '--namespace', valueSet.namespace];
  for (const f of valueSet.valuesFiles) args.push('-f', pathOf(f));
  for (const s of valueSet.set) args.push('--set', s);
  return args;
}

/** helm's environment: the user's, with plugins off so nothing but helm itself runs. */
function helmEnv(): NodeJS.ProcessEnv {
  return { ...process.env, HELM_NO_PLUGINS: '1' };
}

/** The runner's view of a helm run (workspace/externalTool.ts). */
function toolRun(run: HelmRun): ToolRun {
  return { executable: run.helm, timeoutMs: run.timeoutMs, maxBuffer: maxOutputBytes, env: helmEnv() };
}

/** Runs one render synchronously (the CLI). */
export function runHelmSync(run: HelmRun, args: readonly string[]): HelmExit {
  return runToolSync(toolRun(run), args);
}

/** Runs several renders synchronously (the CLI), `parallel` at a time (workspace/externalTool.ts). */
export function runHelmBatchSync(run: HelmRun, batch: readonly (readonly string[])[], parallel: number, progress?: BatchProgress): HelmExit[] {
  return runToolBatchSync(toolRun(run), batch, parallel, progress);
}

/** Runs one render without blocking (the language server). */
export function runHelm(run: HelmRun, args: readonly string[]): Promise<HelmExit> {
  return runTool(toolRun(run), args);
}

/** The unit's id, label and inputs, the same whether it renders or not. */
function unitBase(chart: Chart, valueSet: ValueSet) {
  return {
    kind: 'helm' as const,
    id: `helm:${chart.root}#${valueSet.id}`,
    label: `chart ${chart.name}, ${valueSet.label}`,
    definedBy: chart.chartYaml,
    inputs: [...new Set([...chart.files, ...valueSet.valuesFiles])],
  };
}

/** The problem that stops a render before helm runs: a declared dependency that is not under `charts/`. */
export function missingDependencies(chart: Chart, charts: readonly Chart[]): RenderProblem[] {
  const out: RenderProblem[] = [];
  const visit = (c: Chart) => {
    for (const d of c.dependencies) {
      if (d.present) continue;
      out.push({
        uri: d.declaredIn,
        span: d.span,
        severity: 'information',
        code: 'helm-dependency-missing',
        ...worded(
          phrase(
            'Chart {0} is not rendered: its dependency {1} is not in {2}/. Run `helm dependency build` to fetch it (this extension never downloads anything).',
            c.name,
            d.version ? `${d.name} ${d.version}` : d.name,
            relativeTo(c.root, `${c.root}/charts`),
          ),
        ),
      });
    }
    for (const s of c.subcharts) {
      const sub = charts.find((x) => x.root === s);
      if (sub) visit(sub);
    }
  };
  visit(chart);
  return out;
}

/** A note on a chart, on the name in its Chart.yaml: every problem of a chart that is not about one template line. */
function chartNote(chart: Chart, severity: RenderProblem['severity'], code: RenderProblem['code'], why: Phrase): RenderProblem {
  return { uri: chart.chartYaml, span: chart.nameSpan, severity, code, ...worded(why) };
}

/** Each top-level chart's note when helm is not there: its templates are not rendered. */
export function helmMissingProblem(chart: Chart): RenderProblem {
  return chartNote(
    chart,
    'information',
    'helm-not-rendered',
    phrase(
      'Chart {0} is not rendered, so its templates are not checked: rendering needs helm. Install helm on PATH or set `kubeNetlens.helm.path` (on the command line: --helm PATH) to the helm executable.',
      chart.name,
    ),
  );
}

/** Each top-level chart's note in an untrusted workspace, where helm never runs. */
export function untrustedProblem(chart: Chart): RenderProblem {
  return chartNote(
    chart,
    'information',
    'helm-not-rendered',
    phrase('Chart {0} is not rendered, so its templates are not checked: Helm charts are rendered (by running helm) only in a trusted workspace.', chart.name),
  );
}

/**
 * What the editor says about charts it does not render: one note per top-level chart when the workspace is not
 * trusted or helm is not found; nothing otherwise.
 */
export function chartNotesFor(charts: readonly Chart[], settings: HelmSettings, env: Readonly<Record<string, string | undefined>>): RenderProblem[] {
  const top = charts.filter((c) => rendersAlone(c));
  if (!top.length) return [];
  if (!settings.allowed) return top.map(untrustedProblem);
  if (!helmForSettings(settings, env)) return top.map(helmMissingProblem);
  return [];
}

/** One render → the rendered unit (or its problems). `exit` is what runHelm or runHelmSync returned. */
export function unitFromExit(
  chart: Chart,
  charts: readonly Chart[],
  valueSet: ValueSet,
  exit: HelmExit,
  textOf: TextOf,
  timeoutMs: number,
  chartPath?: string,
): RenderedUnit {
  const base = unitBase(chart, valueSet);
  const where = `chart ${chart.name}, ${valueSet.label}`;
  if (exit.spawnError)
    return {
      ...base,
      problems: [chartNote(chart, 'warning', 'helm-failed', phrase('helm could not be started for {0}: {1}', where, exit.spawnError))],
    };
  if (exit.tooLarge) {
    return {
      ...base,
      problems: [
        chartNote(
          chart,
          'warning',
          'helm-failed',
          phrase('helm template wrote more than {0} MB for {1} and was stopped; a render that large is not checked.', maxRenderBytes / (1024 * 1024), where),
        ),
      ],
    };
  }
  if (exit.timedOut) {
    return {
      ...base,
      problems: [
        chartNote(
          chart,
          'warning',
          'helm-failed',
          phrase(
            'helm template did not finish within {0} for {1} and was stopped; its templates are not checked.',
            timeoutMs < 1000 ? `${timeoutMs} ms` : `${timeoutMs / 1000} s`,
            where,
          ),
        ),
      ],
    };
  }
  if (exit.status !== 0) return { ...base, problems: [helmErrorProblem(chart, charts, valueSet, exit.stderr, textOf, chartPath)] };
  const mapped = mapHelmOutput(exit.stdout, chart, charts, valueSet, textOf);
  // what `lookup` and `.Capabilities` would have answered in a cluster is unknown (semantics §9.2)
  const dependences = chartClusterDependences(chart.files, textOf, valueSet.namespace);
  return { ...base, rendered: mapped.rendered, problems: [], ...(dependences.length ? { clusterDependences: dependences } : {}) };
}

/** helm's error → a problem on the template line it names (`<chart>/templates/x.yaml:12:3`), else on Chart.yaml. */
export function helmErrorProblem(
  chart: Chart,
  charts: readonly Chart[],
  valueSet: ValueSet,
  stderr: string,
  textOf: TextOf,
  chartPath?: string,
): RenderProblem {
  const lines = withoutMachinePaths(stderr, chartPath)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());
  const shown = lines.slice(0, errorLines).join('\n');
  const at = locateHelmError(chart, charts, shown, textOf);
  // helm's own error text follows as it printed it (machine paths removed): it is what a search finds
  return {
    uri: at?.uri ?? chart.chartYaml,
    span: at?.span ?? chart.nameSpan,
    severity: 'error',
    code: 'helm-failed',
    ...worded(phrase('helm template failed for chart {0}, {1}:\n{2}', chart.name, valueSet.label, shown || phrase('helm template failed without a message'))),
  };
}

/**
 * helm's text without the paths of the user's machine (messages end up in SARIF uploads): a path in the chart folder
 * helm was given (the checkout, or the temporary copy of an unsaved chart) becomes relative to the chart, any other
 * absolute path its file name.
 */
function withoutMachinePaths(text: string, chartPath: string | undefined): string {
  return withWorkspacePaths(text, (p) => p.slice(p.lastIndexOf('/') + 1) || p, chartPath ? [[`${chartPath.replace(/\/+$/, '')}/`, '']] : []);
}

function locateHelmError(chart: Chart, charts: readonly Chart[], message: string, textOf: TextOf): { uri: string; span: Span } | undefined {
  const m = /([A-Za-z0-9_.-]+(?:\/charts\/[A-Za-z0-9_.-]+)*\/templates\/[^\s:()"]+?):(\d+)(?::(\d+))?/.exec(message);
  const yamlOn = /YAML parse error on ([A-Za-z0-9_.-]+(?:\/charts\/[A-Za-z0-9_.-]+)*\/templates\/[^\s:()"]+)/.exec(message);
  const path = m?.[1] ?? yamlOn?.[1];
  if (!path) return undefined;
  const uri = templateUriOf(chart, charts, path, textOf);
  if (!uri) return undefined;
  const text = textOf(uri) ?? '';
  if (!m) return { uri, span: firstLineSpan(text, 0) };
  // helm counts lines from 1 and columns from 1 (in bytes; ASCII templates agree with UTF-16 offsets)
  let start = 0;
  for (let line = 1; line < Number(m[2]); line++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  const span = firstLineSpan(text, start);
  const col = m[3] ? Math.min(start + Number(m[3]) - 1, span.end) : span.start;
  return { uri, span: { start: col, end: span.end } };
}

/** The line starting at `start`, without its indentation. */
function firstLineSpan(text: string, start: number): Span {
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  let s = start;
  while (s < end && (text[s] === ' ' || text[s] === '\t')) s++;
  return { start: s, end: end > s && text[end - 1] === '\r' ? end - 1 : end };
}

export interface RenderPlan {
  readonly chart: Chart;
  readonly valueSet: ValueSet;
  /** Problems that stop the render before helm runs (missing dependencies); empty when helm should run. */
  readonly blocked: readonly RenderProblem[];
  /** A problem of this value set alone that stops its render (a values file over the size cap), given with it. */
  readonly refused?: RenderProblem;
}

/**
 * What rendering a chart's value sets takes: one plan per value set, each blocked when a dependency is missing or
 * the chart reaches outside the workspace (outsideWorkspace), or refused when a values file helm would read (the
 * chart's values.yaml, the set's own files) is over the size cap: its size is asked of the file system, it is never
 * read here.
 */
export function planRenders(chart: Chart, charts: readonly Chart[], run?: HelmRun): RenderPlan[] {
  const blocked = missingDependencies(chart, charts);
  return chart.valueSets.map((valueSet) => {
    const outside = !blocked.length && run ? outsideWorkspace(chart, valueSet, run) : undefined;
    const refused = !outside && run ? oversizedValues(chart, valueSet, run) : undefined;
    return { chart, valueSet, blocked: outside ? [outside] : blocked, ...(refused ? { refused } : {}) };
  });
}

function oversizedValues(chart: Chart, valueSet: ValueSet, run: HelmRun): RenderProblem | undefined {
  const limit = run.maxValuesBytes ?? defaultMaxValuesBytes;
  for (const uri of [resolveUri(chart.root + '/', 'values.yaml'), ...valueSet.valuesFiles]) {
    let size: number;
    try {
      size = statSync(run.pathOf(uri)).size;
    } catch {
      continue;
    }
    if (size <= limit) continue;
    const mb = (n: number) => (n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n >= 10 * 1024 * 1024 ? 0 : 1)} MB` : `${Math.ceil(n / 1024)} KB`);
    return chartNote(
      chart,
      'warning',
      'helm-failed',
      phrase(
        'Chart {0}, {1} is not rendered: the values file {2} is {3}, over the {4} size limit (kubeNetlens.files.maxSizeKB).',
        chart.name,
        valueSet.label,
        relativeTo(chart.root, uri),
        mb(size),
        mb(limit),
      ),
    );
  }
  return undefined;
}

/** The note on a chart whose value sets past `maxValueSetsPerChart` are not rendered, naming them. */
export function omittedValueSetsNote(chart: Chart): RenderProblem | undefined {
  const omitted = chart.omittedValueSets;
  if (!omitted?.length) return undefined;
  const named = omitted.slice(0, 10).join(', ');
  const total = (chart.valueSets.length + omitted.length).toLocaleString('en-US');
  return chartNote(
    chart,
    'information',
    'helm-not-rendered',
    omitted.length > 10
      ? phrase(
          'Chart {0} has {1} value sets; only the first {2} are rendered. Not rendered: {3} and {4} more.',
          chart.name,
          total,
          chart.valueSets.length,
          named,
          (omitted.length - 10).toLocaleString('en-US'),
        )
      : phrase('Chart {0} has {1} value sets; only the first {2} are rendered. Not rendered: {3}.', chart.name, total, chart.valueSets.length, named),
  );
}

/** A plan's unit when helm does not run for it; `first` says whether it carries the chart's own notes. */
function unrun(plan: RenderPlan, first: boolean): RenderedUnit | undefined {
  if (plan.blocked.length) return { ...unitBase(plan.chart, plan.valueSet), problems: first ? plan.blocked : [] };
  if (plan.refused) return { ...unitBase(plan.chart, plan.valueSet), problems: [plan.refused] };
  return undefined;
}

/** The chart's note about value sets it does not render, added to its first unit. */
function withChartNotes(units: RenderedUnit[], chart: Chart): RenderedUnit[] {
  const note = omittedValueSetsNote(chart);
  if (note && units.length) units[0] = { ...units[0], problems: [...units[0].problems, note] };
  return units;
}

/** Renders every value set of several charts synchronously (the CLI), `parallel` renders at a time. */
export function renderChartsSync(
  charts: readonly Chart[],
  all: readonly Chart[],
  run: HelmRun,
  textOf: TextOf,
  parallel: number,
  progress?: BatchProgress,
): RenderedUnit[] {
  const plans = charts.flatMap((chart) =>
    planRenders(chart, all, run).map((plan, i) => ({ plan, first: i === 0 || plan.blocked.some((b) => b.code === 'helm-not-rendered') })),
  );
  const toRun = plans.filter((p) => !p.plan.blocked.length && !p.plan.refused);
  const exits = runHelmBatchSync(
    run,
    toRun.map((p) => helmArgs(p.plan.chart, p.plan.valueSet, run.pathOf)),
    parallel,
    progress,
  );
  const exitOf = new Map(toRun.map((p, i) => [p, exits[i]]));
  const units = plans.map((p) => {
    const { chart, valueSet } = p.plan;
    // the missing-dependency note is given once, with the first value set
    const skipped = unrun(p.plan, p.first);
    const unit = skipped ?? unitFromExit(chart, all, valueSet, exitOf.get(p)!, textOf, run.timeoutMs, run.pathOf(chart.root));
    const note = p.first ? omittedValueSetsNote(chart) : undefined;
    return note ? { ...unit, problems: [...unit.problems, note] } : unit;
  });
  return units;
}

/** Renders every value set of a chart without blocking (the language server). */
export async function renderChart(chart: Chart, charts: readonly Chart[], run: HelmRun, textOf: TextOf): Promise<RenderedUnit[]> {
  const plans = planRenders(chart, charts, run);
  const units = await Promise.all(
    plans.map(
      async (plan, i) =>
        unrun(plan, i === 0 || plan.blocked.some((b) => b.code === 'helm-not-rendered')) ??
        unitFromExit(
          chart,
          charts,
          plan.valueSet,
          await runHelm(run, helmArgs(chart, plan.valueSet, run.pathOf)),
          textOf,
          run.timeoutMs,
          run.pathOf(chart.root),
        ),
    ),
  );
  return withChartNotes(units, chart);
}

/**
 * The releases of the settings with their paths as file URIs: relative paths are read from the first workspace
 * folder (a path of the file system).
 */
export function releasesIn(releases: readonly ReleaseSetting[], folders: readonly string[]): ReleaseSetting[] {
  if (!folders.length) return [...releases];
  // in the spelling every file URI of the workspace has (workspace/uri.ts), so that they compare equal
  const base = fileUri(folders[0]);
  const abs = (p: string) => canonicalUri(p.startsWith('/') ? fileUri(p) : resolveUri(base, p));
  return releases.map((r) => ({ ...r, chart: abs(r.chart), values: r.values.map(abs) }));
}

/**
 * Renders a chart as the editor has it, unsaved changes included (helm reads files): from a temporary copy of the
 * chart folder with the workspace's texts of its files written over it. The copy is removed afterwards.
 */
export async function renderChartWithTexts(chart: Chart, charts: readonly Chart[], run: HelmRun, textOf: TextOf): Promise<RenderedUnit[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-chart-'));
  try {
    const copy = join(dir, 'chart');
    cpSync(run.pathOf(chart.root), copy, { recursive: true });
    for (const uri of chart.files) {
      const text = textOf(uri);
      if (text === undefined) continue;
      const target = join(copy, ...relativeTo(chart.root, uri).split('/').map(decodeURIComponent));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    const inChart = `${chart.root}/`;
    const pathOf = (u: string) =>
      u === chart.root ? copy : u.startsWith(inChart) ? join(copy, ...u.slice(inChart.length).split('/').map(decodeURIComponent)) : run.pathOf(u);
    return await renderChart(chart, charts, { ...run, pathOf, sourcePathOf: run.sourcePathOf ?? run.pathOf }, textOf);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
