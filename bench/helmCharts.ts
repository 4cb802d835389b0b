// Helm charts at a small scale: a workspace of 20 charts (each rendered with values.yaml and two ci/*-values.yaml,
// 60 renders), the time `kube-netlens check` takes cold, next to the time helm itself takes for the same renders
// (one after another, and as many at a time as check runs them), and the check without helm (templates skipped) as
// the analysis floor. One run each. `npm run bench` runs it too (bench/run.ts, `--helm-charts`).
// Usage: node --import tsx bench/helmCharts.ts [--charts N]   (needs `npm run build` and `node scripts/setup-helm.mjs`)

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..');
const helm = join(root, '.tools', 'helm', 'helm');
const cli = join(root, 'dist', 'cli.js');

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** One chart: a Deployment and two Services whose names and selectors come from values; ci/ sets change them. */
function chart(dir: string, i: number): void {
  const name = `app${String(i).padStart(2, '0')}`;
  write(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 1.0.${i}\n`);
  write(join(dir, 'values.yaml'), `replicas: 2\nport: 8080\ncomponent: web\n`);
  write(join(dir, 'ci', 'small-values.yaml'), `replicas: 1\n`);
  // every fourth chart's prod values misspell the selector: a finding in that value set only
  write(join(dir, 'ci', 'prod-values.yaml'), `replicas: 6\n${i % 4 === 0 ? 'component: wbe\n' : ''}`);
  write(
    join(dir, 'templates', '_helpers.tpl'),
    `{{- define "labels" -}}\napp.kubernetes.io/name: {{ .Chart.Name }}\napp.kubernetes.io/instance: {{ .Release.Name }}\n{{- end }}\n`,
  );
  write(
    join(dir, 'templates', 'deployment.yaml'),
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: {{ .Release.Name }}',
      '  labels:',
      '    {{- include "labels" . | nindent 4 }}',
      'spec:',
      '  replicas: {{ .Values.replicas }}',
      '  selector:',
      '    matchLabels:',
      '      component: web',
      '  template:',
      '    metadata:',
      '      labels:',
      '        component: web',
      '        {{- include "labels" . | nindent 8 }}',
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: registry.example/app:1',
      '          ports:',
      '            - name: http',
      '              containerPort: {{ .Values.port }}',
      '',
    ].join('\n'),
  );
  write(
    join(dir, 'templates', 'service.yaml'),
    [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ .Release.Name }}',
      'spec:',
      '  selector:',
      '    component: {{ .Values.component }}',
      '  ports:',
      '    - port: 80',
      '      targetPort: http',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ .Release.Name }}-headless',
      'spec:',
      '  clusterIP: None',
      '  selector:',
      '    component: web',
      '  ports:',
      '    - port: {{ .Values.port }}',
      '',
    ].join('\n'),
  );
}

export interface HelmBenchResult {
  readonly helmVersion: string;
  readonly charts: number;
  readonly renders: number;
  /** Renders at a time in `kube-netlens check` (cli/helmCharts.ts). */
  readonly parallel: number;
  readonly helmSequentialMs: number;
  readonly helmParallelMs: number;
  readonly checkMs: number;
  readonly checkSummary: string;
  readonly checkWithoutHelmMs: number;
  readonly checkWithoutHelmSummary: string;
  /** check over helm's output written as plain manifests (a folder per render): the analysis of the same objects. */
  readonly checkRenderedMs: number;
  readonly checkRenderedSummary: string;
  readonly load: number;
}

/** The renders of the workspace: each chart with values.yaml, then with each ci/ values file. */
function rendersOf(work: string, count: number): string[][] {
  const out: string[][] = [];
  for (let i = 1; i <= count; i++) {
    const dir = join(work, `chart${i}`);
    for (const values of [[], ['-f', join(dir, 'ci', 'small-values.yaml')], ['-f', join(dir, 'ci', 'prod-values.yaml')]])
      out.push(['template', `app${i}`, dir, ...values]);
  }
  return out;
}

/** Runs the renders `parallel` at a time: the wall time, and each render's output. */
async function timeRenders(renders: readonly string[][], parallel: number): Promise<{ ms: number; outputs: string[] }> {
  const started = process.hrtime.bigint();
  const outputs: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < renders.length) {
      const i = next++;
      outputs[i] = await new Promise<string>((done, fail) =>
        execFile(helm, renders[i], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }, (err, out, stderr) =>
          err ? fail(new Error(stderr || err.message)) : done(out),
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, outputs };
}

export async function measureHelmCharts(count = 20): Promise<HelmBenchResult> {
  if (!existsSync(helm)) throw new Error(`${helm} is missing: run node scripts/setup-helm.mjs`);
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build`);
  const work = join(root, 'bench', 'work', `helm-${count}`);
  rmSync(work, { recursive: true, force: true });
  for (let i = 1; i <= count; i++) chart(join(work, `chart${i}`), i);
  const helmVersion = spawnSync(helm, ['version', '--short'], { encoding: 'utf8' }).stdout.trim();
  const renders = rendersOf(work, count);
  // as cli/helmCharts.ts runs them
  const parallel = Math.min(4, availableParallelism());
  const sequential = await timeRenders(renders, 1);
  const helmParallelMs = (await timeRenders(renders, parallel)).ms;
  const plain = join(root, 'bench', 'work', `helm-${count}-rendered`);
  rmSync(plain, { recursive: true, force: true });
  sequential.outputs.forEach((text, i) => write(join(plain, `render${i + 1}`, 'objects.yaml'), text));
  const timed = (args: string[], env: NodeJS.ProcessEnv) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`kube-netlens ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, summary: r.stdout.trim().split('\n').pop() ?? '' };
  };
  const withHelm = timed(['check', '--helm', helm, work], process.env);
  const without = timed(['check', work], { ...process.env, PATH: dirname(process.execPath) });
  const rendered = timed(['check', plain], { ...process.env, PATH: dirname(process.execPath) });
  return {
    helmVersion,
    charts: count,
    renders: renders.length,
    parallel,
    helmSequentialMs: sequential.ms,
    helmParallelMs,
    checkMs: withHelm.ms,
    checkSummary: withHelm.summary,
    checkWithoutHelmMs: without.ms,
    checkWithoutHelmSummary: without.summary,
    checkRenderedMs: rendered.ms,
    checkRenderedSummary: rendered.summary,
    load: Math.round(loadavg()[0] * 100) / 100,
  };
}

/** The figures as a Markdown table. */
export function formatHelmBench(r: HelmBenchResult): string {
  const f = (ms: number) => `${Math.round(ms)} ms`;
  return [
    `Helm charts (helm ${r.helmVersion}): ${r.charts} charts, ${r.renders} renders; load average ${r.load.toFixed(2)}; one run each.`,
    '',
    '| what | time | result |',
    '|---|---|---|',
    `| helm template alone, ${r.renders} renders one after another | ${f(r.helmSequentialMs)} | |`,
    `| helm template alone, ${r.parallel} at a time (as check runs them) | ${f(r.helmParallelMs)} | |`,
    `| kube-netlens check, charts rendered (cold, helm included) | ${f(r.checkMs)} | ${r.checkSummary} |`,
    `| kube-netlens check without helm (templates skipped) | ${f(r.checkWithoutHelmMs)} | ${r.checkWithoutHelmSummary} |`,
    `| kube-netlens check of helm's output as plain manifests (a folder per render): the analysis alone | ${f(r.checkRenderedMs)} | ${r.checkRenderedSummary} |`,
    '',
  ].join('\n');
}

if (require.main === module) {
  const arg = process.argv.indexOf('--charts');
  measureHelmCharts(arg > 0 ? Number(process.argv[arg + 1]) : 20).then(
    (r) => console.log(formatHelmBench(r)),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    },
  );
}
