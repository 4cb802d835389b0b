// What chart templates take from the cluster (`lookup`, `.Capabilities`), read from the template text (pure).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chartClusterDependences, clusterDependences } from '../../server/src/model/helmLookups';
import { cpuClock } from '../helpers/cpuClock';

const uri = 'file:///w/web/templates/t.yaml';
const brief = (text: string) => clusterDependences(uri, text).map((d) => [d.how, d.kind, d.name ?? null, d.apiVersion ?? null, d.text]);
const namespaces = (text: string) => clusterDependences(uri, text).map((d) => d.namespace ?? null);

describe('cluster dependences of a template', () => {
  it('a template that asks the cluster nothing has none', () => {
    assert.deepEqual(brief('{{- if .Values.enabled }}\napiVersion: v1\nkind: Service\n{{- end }}\n'), []);
  });

  it('a lookup, with its literal kind and name, or * when the template computes them', () => {
    assert.deepEqual(
      brief(
        '{{- $s := lookup "v1" "Service" .Release.Namespace "api" }}\n{{- $all := (lookup "v1" "Secret" "" "") }}\n{{ $k := lookup "v1" .Values.kind "ns" (printf "%s-x" .Release.Name) }}\n',
      ),
      [
        ['lookup', 'Service', 'api', null, 'lookup "v1" "Service" .Release.Namespace "api"'],
        ['lookup', 'Secret', '', null, 'lookup "v1" "Secret" "" ""'],
        ['lookup', '*', null, null, 'lookup "v1" .Values.kind "ns" (printf "%s-x" .Release.Name)'],
      ],
    );
  });

  it('objects written inside a block whose condition asks lookup or .Capabilities, directly or through a variable', () => {
    const text = [
      '{{- $db := lookup "apps/v1" "StatefulSet" .Release.Namespace "db" }}',
      '{{- if $db }}',
      'apiVersion: v1',
      'kind: Service',
      '{{- end }}',
      '{{- if .Capabilities.APIVersions.Has "monitoring.coreos.com/v1" }}',
      '---',
      'apiVersion: monitoring.coreos.com/v1',
      'kind: ServiceMonitor',
      '{{- else }}',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      '{{- end }}',
      '{{- if .Values.plain }}',
      'apiVersion: v1',
      'kind: ConfigMap',
      '{{- end }}',
      '',
    ].join('\n');
    assert.deepEqual(brief(text), [
      ['lookup', 'StatefulSet', 'db', null, 'lookup "apps/v1" "StatefulSet" .Release.Namespace "db"'],
      ['guard', 'Service', null, 'v1', 'if $db'],
      ['guard', 'ServiceMonitor', null, 'monitoring.coreos.com/v1', 'if .Capabilities.APIVersions.Has "monitoring.coreos.com/v1"'],
      ['guard', 'Deployment', null, 'apps/v1', 'if .Capabilities.APIVersions.Has "monitoring.coreos.com/v1"'],
    ]);
  });

  it('a computed kind, and an include at the start of a line, inside a guard are objects of any kind; indented includes and define bodies are not', () => {
    const text = [
      '{{- define "x.svc" }}',
      '{{- if .Capabilities.APIVersions.Has "v1" }}',
      'kind: Service',
      '{{- end }}',
      '{{- end }}',
      '{{- with lookup "v1" "ConfigMap" "ns" "flags" }}',
      'apiVersion: v1',
      'kind: {{ .data.kind }}',
      'metadata:',
      '  labels:',
      '    {{- include "x.labels" . | nindent 4 }}',
      '---',
      '{{ include "x.svc" . }}',
      '{{- end }}',
      '',
    ].join('\n');
    assert.deepEqual(
      brief(text).filter((d) => d[0] === 'guard'),
      [
        ['guard', '*', null, 'v1', 'with lookup "v1" "ConfigMap" "ns" "flags"'],
        ['guard', '*', null, null, 'with lookup "v1" "ConfigMap" "ns" "flags"'],
      ],
    );
  });

  it('a nested block inside a guard is guarded; a guard closes at its end; comments are not actions', () => {
    const text =
      '{{/* lookup "v1" "Service" */}}\n{{- if .Capabilities.KubeVersion }}\n{{- if .Values.a }}\nkind: Deployment\n{{- end }}\n{{- end }}\nkind: Service\n';
    assert.deepEqual(brief(text), [['guard', 'Deployment', null, null, 'if .Capabilities.KubeVersion']]);
  });

  it("the namespace: literal, the release's (for .Release.Namespace, and for guarded objects that name none), or unknown when computed", () => {
    const text = [
      '{{- $a := lookup "v1" "Service" .Release.Namespace "a" }}',
      '{{- $b := lookup "v1" "Service" "infra" "b" }}',
      '{{- $c := lookup "v1" "Service" .Values.ns "c" }}',
      '{{- $d := lookup "v1" "Service" "" "" }}',
      '{{- if $a }}',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: x',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  namespace: monitoring',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  namespace: {{ .Release.Namespace }}',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  namespace: {{ .Values.other }}',
      '{{- end }}',
      '',
    ].join('\n');
    assert.deepEqual(namespaces(text), ['{release}', 'infra', null, null, '{release}', 'monitoring', '{release}', null]);
    const resolved = chartClusterDependences([uri, 'file:///w/web/values.yaml'], (u) => (u === uri ? text : 'lookup: "v1"'), 'shop');
    assert.deepEqual(
      resolved.map((d) => d.namespace ?? null),
      ['shop', 'infra', null, null, 'shop', 'monitoring', 'shop', null],
    );
  });

  it('unbalanced or hostile text gives an answer, not an exception, in linear time', () => {
    assert.doesNotThrow(() => clusterDependences(uri, '{{ end }}{{ else }}{{ lookup "v1" "Ser'));
    const big = `{{ if lookup "v1" "Service" "a" "b" }}\n${'kind: Service\n{{ lookup ( ( ( }}\n'.repeat(20_000)}`;
    const cpuMs = cpuClock();
    assert.ok(clusterDependences(uri, big).length >= 20_000);
    assert.ok(cpuMs() < 2000, `took ${cpuMs()} ms of CPU`);
  });
});
