// Each enumerated setting is declared once, in model/config.ts: package.json `contributes.configuration` must list
// exactly the same values and defaults, and the settings reader accepts exactly those values.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cnis, defaultConfig, loadRestrictors, podsModes, proxyModes, ruleLevels, severities, type Severity } from '../../server/src/model/config';
import type { TraceFinding } from '../../server/src/protocol';
import { defaultFileOptions, readSettings } from '../../server/src/workspace/settings';

interface Property {
  readonly default?: unknown;
  readonly enum?: readonly string[];
  readonly enumDescriptions?: readonly string[];
  readonly additionalProperties?: { readonly enum?: readonly string[] };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } | { properties: Record<string, Property> }[] };
};
const sections = manifest.contributes.configuration;
const properties: Record<string, Property> = Object.assign({}, ...(Array.isArray(sections) ? sections : [sections]).map((s) => s.properties));

// The protocol spells the severities out (it imports nothing): the type check fails when they drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const protocolSeverities: Same<Severity, TraceFinding['severity']> = true;

describe('settings enums', () => {
  const enums: [string, readonly string[], string][] = [
    ['kubeNetlens.proxyMode', proxyModes, defaultConfig.proxyMode],
    ['kubeNetlens.cni', cnis, defaultConfig.cni],
    ['kubeNetlens.coreDns.podsMode', podsModes, defaultConfig.coreDns.podsMode],
    ['kubeNetlens.kustomize.loadRestrictor', loadRestrictors, 'rootOnly'],
  ];
  for (const [key, values, fallback] of enums) {
    it(`${key}: package.json lists exactly the values and the default of model/config.ts`, () => {
      const p = properties[key];
      assert.ok(p, `${key} is missing from package.json`);
      assert.deepEqual(p.enum, values);
      assert.equal(p.default, fallback);
      if (p.enumDescriptions) assert.equal(p.enumDescriptions.length, values.length, `${key}: one description per value`);
    });

    it(`${key}: the settings reader takes every listed value and nothing else`, () => {
      const [, ...path] = key.split('.');
      const setting = (v: unknown): unknown => path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), v);
      const read = (v: unknown) => {
        // kustomize.* settings sit beside the analysis config (and are read only in a trusted workspace)
        const all = readSettings(setting(v), true) as unknown as Record<string, unknown>;
        const a = path[0] === 'kustomize' ? all : (all.analysis as Record<string, unknown>);
        return path.reduce<unknown>((o, part) => (o as Record<string, unknown>)[part], a);
      };
      for (const v of values) assert.equal(read(v), v);
      assert.equal(read('no-such-value'), fallback);
    });
  }

  it('kubeNetlens.rules: package.json lists exactly the severities and off', () => {
    assert.deepEqual(properties['kubeNetlens.rules']?.additionalProperties?.enum, ruleLevels);
    assert.deepEqual(ruleLevels.slice(0, -1), severities);
    const read = readSettings({ rules: Object.fromEntries([...ruleLevels.map((l) => [`code-${l}`, l]), ['code-loud', 'loud']]) }).analysis.rules;
    assert.deepEqual(Object.values(read), [...ruleLevels]);
    assert.ok(protocolSeverities);
  });

  it('the other defaults in package.json are the defaults in code', () => {
    assert.equal(properties['kubeNetlens.clusterDomain']?.default, defaultConfig.clusterDomain);
    assert.equal(properties['kubeNetlens.defaultNamespace']?.default, defaultConfig.defaultNamespace);
    assert.equal(properties['kubeNetlens.nodePortRange']?.default, defaultConfig.nodePortRange.join('-'));
    assert.equal(properties['kubeNetlens.coreDns.endpointPodNames']?.default, defaultConfig.coreDns.endpointPodNames);
    assert.deepEqual(properties['kubeNetlens.files.include']?.default, defaultFileOptions.include);
    assert.deepEqual(properties['kubeNetlens.files.exclude']?.default, defaultFileOptions.exclude);
    assert.equal(properties['kubeNetlens.files.maxSizeKB']?.default, defaultFileOptions.maxSizeKB);
  });
});
