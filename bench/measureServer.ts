// Measures the language server as an editor sees it, in one session over stdio: cold index, incremental edits,
// hovers and peak memory.
//
// Cold index: from sending `initialize` (server process already started) to the `kubeNetlens/status` notification
// with `indexing: false`. The server sends that only after its first full publish, and every
// `textDocument/publishDiagnostics` of that pass is written to the pipe before it, so it is the most reliable
// "every file's diagnostics are out" signal (counting publishes cannot tell when the last one has come).
//
// Incremental edit: one file open, then edits sent one at a time as full-text didChange. For each, the clock runs
// from sending the change to the last publishDiagnostics it causes; the pass is over when the server's
// `kubeNetlens/analysisChanged` notification arrives (sent after that pass's diagnostics), followed by a quiet
// window in which nothing else arrives. Nothing is subtracted: the server's edit debounce is part of the figure.
// An edit whose pass publishes nothing (no file's findings changed) counts up to its analysisChanged.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { EditTarget, ServiceSite } from './generate';
import { percentile } from './stats';
import { startSession, type PublishParams, type Received, type StatusParams } from './lspSession';
import { burstQuietMs } from '../server/src/lsp/publish';

export interface ServerFigures {
  readonly coldIndexMs: number;
  /** CPU time of the server process during the cold index: less disturbed than wall time by a busy machine. */
  readonly coldIndexCpuMs: number;
  /** Files the cold index published non-empty diagnostics for. */
  readonly filesWithDiagnostics: number;
  readonly diagnostics: number;
  /** One published message, to show the language the server spoke (`--lang`). */
  readonly sampleMessage?: string;
  readonly incremental: EditFigures;
  readonly hover: HoverFigures;
  /** Hovers on the name of workloads that NetworkPolicies select: the reach hover (features/hoverReach.ts). */
  readonly reachHover: HoverFigures;
  readonly peakRssMb: number;
}

export interface EditFigures {
  readonly edits: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** Edits after which no file's diagnostics changed. */
  readonly silentEdits: number;
  /** Edits that changed the diagnostics of at least one file other than the edited one. */
  readonly editsChangingOtherFiles: number;
  /** The server process's CPU time per edit (all threads, the garbage collector's included), mean over the edits. */
  readonly cpuMsPerEdit: number;
}

export interface HoverFigures {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxEndpoints: number;
  /** The server process's CPU time per hover, mean over the hovers. */
  readonly cpuMsPerHover: number;
}

export interface ServerRunOptions {
  readonly serverJs: string;
  readonly folder: string;
  readonly editTarget: EditTarget;
  readonly busyServices: readonly ServiceSite[];
  readonly busyWorkloads: readonly ServiceSite[];
  readonly edits: number;
  /** Edits stop early (after at least 20) once they have taken this long; the figures say how many ran. */
  readonly editBudgetMs: number;
  readonly hovers: number;
  readonly timeoutMs: number;
  /** Runs the server with a V8 CPU profiler writing into this folder (the profile covers the whole session). */
  readonly cpuProfileDir?: string;
}

const quietMs = 30;

/**
 * Edits are sent at least this far apart (from one change to the next): the server takes changes closer together
 * than its burst window (lsp/publish.ts `burstQuietMs`) for a burst and waits for it to end, which would add that wait
 * to every edit that is answered faster than the window minus the quiet time. One edit at a time is what is measured.
 */
const editGapMs = burstQuietMs + 10;

export async function measureServer(o: ServerRunOptions): Promise<ServerFigures> {
  const s = startSession(o.serverJs, o.cpuProfileDir ? { cpuProfileDir: o.cpuProfileDir } : {});
  try {
    const cold = await coldIndex(s, o.folder, o.timeoutMs);
    const before = publishedState(s.received);
    const incremental = await editRun(s, o);
    // every edit is reverted by the next one: what is shown at the end is what the cold index showed
    const after = publishedState(s.received);
    const differ = [...new Set([...before.keys(), ...after.keys()])].filter((uri) => (before.get(uri) ?? '[]') !== (after.get(uri) ?? '[]'));
    if (differ.length)
      throw new Error(
        `after ${incremental.edits} edits, each reverted, the diagnostics of ${differ.length} files differ from the cold index's: ${differ.slice(0, 3).join(', ')}`,
      );
    const hover = await hoverRun(s, o, o.busyServices, 'Service');
    const reachHover = await hoverRun(s, o, o.busyWorkloads, reachHoverTitle);
    return { ...cold, incremental, hover, reachHover, peakRssMb: s.peakRssMb() };
  } finally {
    await s.close();
  }
}

/**
 * Cold index, then the two hover runs and nothing else (`npm run bench -- --hovers-only`): the hover figures of a
 * size in a fraction of a full run's time, the reach hover measured exactly as the full run measures it.
 */
export async function measureHovers(
  o: ServerRunOptions,
): Promise<{ readonly coldIndexMs: number; readonly hover: HoverFigures; readonly reachHover: HoverFigures }> {
  const s = startSession(o.serverJs, o.cpuProfileDir ? { cpuProfileDir: o.cpuProfileDir } : {});
  try {
    const cold = await coldIndex(s, o.folder, o.timeoutMs);
    const hover = await hoverRun(s, o, o.busyServices, 'Service');
    const reachHover = await hoverRun(s, o, o.busyWorkloads, reachHoverTitle);
    return { coldIndexMs: cold.coldIndexMs, hover, reachHover };
  } finally {
    await s.close();
  }
}

/** Cold index only, in a server started with a CPU profiler: the profile covers start-up and the first publish. */
export async function profileColdIndex(serverJs: string, folder: string, profileDir: string, timeoutMs: number): Promise<number> {
  const s = startSession(serverJs, { cpuProfileDir: profileDir });
  try {
    return (await coldIndex(s, folder, timeoutMs)).coldIndexMs;
  } finally {
    await s.close();
  }
}

type Session = ReturnType<typeof startSession>;

/** The diagnostics last published for each URI (as JSON), from the messages received so far. */
function publishedState(received: readonly Received[]): Map<string, string> {
  const latest = new Map<string, string>();
  for (const m of received) {
    if (m.method !== 'textDocument/publishDiagnostics') continue;
    const p = m.params as PublishParams;
    latest.set(p.uri, JSON.stringify(p.diagnostics));
  }
  return latest;
}

const isIndexed = (m: Received) => m.method === 'kubeNetlens/status' && !(m.params as StatusParams).indexing;

async function coldIndex(s: Session, folder: string, timeoutMs: number) {
  await s.quiet(200); // let the server process finish loading before the clock starts
  const from = s.received.length;
  const cpu0 = s.cpuMs();
  const t0 = performance.now();
  await s.initialize(folder);
  const done = await s.waitFor(isIndexed, from, timeoutMs);
  const coldIndexCpuMs = s.cpuMs() - cpu0;
  const latest = new Map<string, number>();
  let sampleMessage: string | undefined;
  for (const m of s.received.slice(from)) {
    if (m.method === 'textDocument/publishDiagnostics') {
      const p = m.params as PublishParams;
      latest.set(p.uri, p.diagnostics.length);
      sampleMessage ??= (p.diagnostics[0] as { message?: string } | undefined)?.message;
    }
  }
  const counts = [...latest.values()].filter((n) => n > 0);
  return {
    coldIndexMs: done.at - t0,
    coldIndexCpuMs,
    filesWithDiagnostics: counts.length,
    diagnostics: counts.reduce((a, b) => a + b, 0),
    ...(sampleMessage !== undefined && { sampleMessage }),
  };
}

interface Mutation {
  readonly file: 'workload' | 'service';
  readonly from: string;
  readonly to: string;
}

/**
 * Edits that move findings into other files: pod labels (the Services in other files stop selecting the pods),
 * serviceName, the container port name (named targetPorts elsewhere stop resolving), the Service port (callers'
 * URLs in other apps' ConfigMaps and the Ingress stop matching) and the Service selector.
 */
function mutationsFor(t: EditTarget): Mutation[] {
  return [
    { file: 'workload', from: `      labels:\n        app: ${t.app}\n`, to: `      labels:\n        app: ${t.app}-canary\n` },
    { file: 'service', from: '      port: 80\n', to: '      port: 8081\n' },
    { file: 'workload', from: `  serviceName: ${t.headlessService}\n`, to: `  serviceName: ${t.app}-peers\n` },
    {
      file: 'workload',
      from: '            - name: http\n              containerPort: 8080\n',
      to: '            - name: web\n              containerPort: 8080\n',
    },
    { file: 'service', from: `  selector:\n    app: ${t.app}\n`, to: `  selector:\n    app: ${t.app}-v2\n` },
  ];
}

async function editRun(s: Session, o: ServerRunOptions): Promise<EditFigures> {
  const t = o.editTarget;
  const docs = {
    workload: { uri: pathToFileURL(join(o.folder, t.workloadFile)).href, text: readFileSync(join(o.folder, t.workloadFile), 'utf8'), version: 1 },
    service: { uri: pathToFileURL(join(o.folder, t.serviceFile)).href, text: readFileSync(join(o.folder, t.serviceFile), 'utf8'), version: 1 },
  };
  for (const d of Object.values(docs)) {
    const from = s.received.length;
    await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: d.uri, languageId: 'yaml', version: d.version, text: d.text } });
    await s.waitFor((m) => m.method === 'kubeNetlens/analysisChanged', from, o.timeoutMs);
    await s.quiet(quietMs);
  }
  const mutations = mutationsFor(t);
  const times: number[] = [];
  let silent = 0;
  let elsewhere = 0;
  const began = performance.now();
  const cpu0 = s.cpuMs();
  let lastSent = -Infinity;
  for (let i = 0; i < o.edits; i++) {
    if (i >= 20 && i % 2 === 0 && performance.now() - began > o.editBudgetMs) break;
    const m = mutations[Math.floor(i / 2) % mutations.length];
    const [from, to] = i % 2 === 0 ? [m.from, m.to] : [m.to, m.from];
    const d = docs[m.file];
    if (d.text.split(from).length !== 2)
      throw new Error(`edit ${i}: "${from.trim()}" is not found exactly once in ${t[m.file === 'workload' ? 'workloadFile' : 'serviceFile']}`);
    d.text = d.text.replace(from, to);
    d.version++;
    const wait = lastSent + editGapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const start = s.received.length;
    const t0 = performance.now();
    lastSent = t0;
    await s.connection.sendNotification('textDocument/didChange', { textDocument: { uri: d.uri, version: d.version }, contentChanges: [{ text: d.text }] });
    const end = await s.waitFor((r) => r.method === 'kubeNetlens/analysisChanged', start, o.timeoutMs);
    await s.quiet(quietMs);
    const publishes = s.received.slice(start).filter((r) => r.method === 'textDocument/publishDiagnostics');
    const last = publishes.length ? publishes[publishes.length - 1].at : end.at;
    times.push(last - t0);
    if (process.env.EDIT_TRACE) console.error(`edit ${i} ${m.file} ${(last - t0).toFixed(1)} publishes ${publishes.length}`);
    if (!publishes.length) silent++;
    if (publishes.some((p) => (p.params as PublishParams).uri !== d.uri)) elsewhere++;
  }
  const cpuMsPerEdit = (s.cpuMs() - cpu0) / times.length;
  return {
    edits: times.length,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    maxMs: Math.max(...times),
    silentEdits: silent,
    editsChangingOtherFiles: elsewhere,
    cpuMsPerEdit,
  };
}

/** The reach hover's title, in English or in Chinese (`npm run bench -- --lang zh-cn`). */
const reachHoverTitle = /NetworkPolicy (?:reach|可达性)/;

/** `o.hovers` hovers on the sites in turn, each checked to answer about that object (its name and `about` in it). */
async function hoverRun(s: Session, o: ServerRunOptions, sites: readonly ServiceSite[], about: string | RegExp): Promise<HoverFigures> {
  const times: number[] = [];
  const cpu0 = s.cpuMs();
  for (let i = 0; i < o.hovers; i++) {
    const site = sites[i % sites.length];
    const uri = pathToFileURL(join(o.folder, site.file)).href;
    const t0 = performance.now();
    const h = await s.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: site.line, character: site.character + 1 },
    });
    times.push(performance.now() - t0);
    const value = h?.contents.value ?? '';
    if (!h || !value.includes(site.name) || !(typeof about === 'string' ? value.includes(about) : about.test(value)))
      throw new Error(
        `hover on ${site.namespace}/${site.name} (${site.file}:${site.line}) returned ${h ? `a hover without its name or "${about}"` : 'nothing'}`,
      );
  }
  const cpuMsPerHover = (s.cpuMs() - cpu0) / times.length;
  return {
    requests: times.length,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    maxEndpoints: Math.max(...sites.map((b) => b.endpoints)),
    cpuMsPerHover,
  };
}
