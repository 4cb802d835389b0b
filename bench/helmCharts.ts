// Helm charts at a small scale: a workspace of 20 charts (each rendered with values.yaml and two ci/*-values.yaml,
// 60 renders), the time `kube-netlens check` takes cold, next to the time helm itself takes for the same renders
// one by one, and the check without helm (templates skipped) as the analysis floor. One run each.
// Usage: node --import tsx bench/helmCharts.ts [--charts N]   (needs `npm run build` and `node scripts/setup-helm.mjs`)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..');
const helm = join(root, '.tools', 'helm', 'helm');
const cli = join(root, 'dist', 'cli.js');
const arg = process.argv.indexOf('--charts');
const count = arg > 0 ? Number(process.argv[arg + 1]) : 20;

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
  write(join(dir, 'templates', '_helpers.tpl'), `{{- define "labels" -}}\napp.kubernetes.io/name: {{ .Chart.Name }}\napp.kubernetes.io/instance: {{ .Release.Name }}\n{{- end }}\n`);
  write(join(dir, 'templates', 'deployment.yaml'), [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: {{ .Release.Name }}', '  labels:', '    {{- include "labels" . | nindent 4 }}',
    'spec:', '  replicas: {{ .Values.replicas }}', '  selector:', '    matchLabels:', '      component: web',
    '  template:', '    metadata:', '      labels:', '        component: web', '        {{- include "labels" . | nindent 8 }}',
    '    spec:', '      containers:', '        - name: app', '          image: registry.example/app:1',
    '          ports:', '            - name: http', '              containerPort: {{ .Values.port }}', '',
  ].join('\n'));
  write(join(dir, 'templates', 'service.yaml'), [
    'apiVersion: v1', 'kind: Service', 'metadata:', '  name: {{ .Release.Name }}', 'spec:', '  selector:', '    component: {{ .Values.component }}',
    '  ports:', '    - port: 80', '      targetPort: http', '---', 'apiVersion: v1', 'kind: Service', 'metadata:', '  name: {{ .Release.Name }}-headless',
    'spec:', '  clusterIP: None', '  selector:', '    component: web', '  ports:', '    - port: {{ .Values.port }}', '',
  ].join('\n'));
}

function main(): void {
  if (!existsSync(helm)) throw new Error(`${helm} is missing: run node scripts/setup-helm.mjs`);
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build`);
  const work = join(root, 'bench', 'work', `helm-${count}`);
  rmSync(work, { recursive: true, force: true });
  for (let i = 1; i <= count; i++) chart(join(work, `chart${i}`), i);

  const version = spawnSync(helm, ['version', '--short'], { encoding: 'utf8' }).stdout.trim();
  let helmMs = 0;
  for (let i = 1; i <= count; i++) {
    const dir = join(work, `chart${i}`);
    for (const values of [[], ['-f', join(dir, 'ci', 'small-values.yaml')], ['-f', join(dir, 'ci', 'prod-values.yaml')]]) {
      const started = process.hrtime.bigint();
      const r = spawnSync(helm, ['template', `app${i}`, dir, ...values], { encoding: 'utf8' });
      helmMs += Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(r.stderr);
    }
  }
  const timed = (args: string[], env: NodeJS.ProcessEnv) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, summary: r.stdout.trim().split('\n').pop() ?? '' };
  };
  const withHelm = timed(['check', '--helm', helm, work], process.env);
  const without = timed(['check', work], { ...process.env, PATH: dirname(process.execPath) });
  const f = (ms: number) => `${Math.round(ms)} ms`;
  console.log(`helm ${version}; ${count} charts, ${count * 3} renders; load average ${loadavg()[0].toFixed(2)}`);
  console.log('| what | time | result |');
  console.log('|---|---|---|');
  console.log(`| helm template alone, ${count * 3} renders one after another | ${f(helmMs)} | |`);
  console.log(`| kube-netlens check, charts rendered (cold, helm included) | ${f(withHelm.ms)} | ${withHelm.summary} |`);
  console.log(`| kube-netlens check without helm (templates skipped) | ${f(without.ms)} | ${without.summary} |`);
  console.log(`| check with charts minus helm alone: the analysis of the renders | ${f(withHelm.ms - helmMs)} | |`);
}

main();
