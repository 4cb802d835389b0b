// The related places of a finding on a Helm render point at the object they name: a template that writes two
// Deployments and a Service (helm prints them sorted by kind, the Service first) maps each rendered document to its
// own `---` section (test/fixtures/helm/sorted: the note "Deployment redis-cart has app: redis-cart" is on
// redis-cart's labels, not on those of the Deployment written above it); a key a template writes twice is reported
// once for every value set, on the template line of the later key, with the earlier one as its related place
// (test/fixtures/helm/dupkey: a value set that adds annotations shifts the rendered lines).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, runCli } from './builtCli';

const helm = join(repoRoot, '.tools', 'helm', 'helm');
const chart = join('test', 'fixtures', 'helm', 'sorted');
const template = readFileSync(join(repoRoot, chart, 'templates', 'cartservice.yaml'), 'utf8').split('\n');

describe('a Helm template with several objects', () => {
  it('puts the related place on the labels of the Deployment it names', () => {
    const run = runCli(['check', chart, '--helm', helm, '--format', 'json']);
    assert.equal(run.status, 0, run.stderr);
    const [finding] = (
      JSON.parse(run.stdout) as {
        diagnostics: { code: string; range: { start: { line: number } }; related?: { message: string; range: { start: { line: number } } }[] }[];
      }
    ).diagnostics;
    assert.equal(finding.code, 'service-selector-no-match');
    assert.equal(template[finding.range.start.line].trim(), 'app: redis-crat');
    const note = finding.related?.find((r) => r.message.startsWith('Deployment "redis-cart"'));
    assert.ok(note, JSON.stringify(finding.related));
    const line = note.range.start.line;
    assert.equal(template[line].trim(), 'app: redis-cart');
    // the pod template's labels (the second `app: redis-cart` of its section), below `labels:`
    assert.equal(template[line - 1].trim(), 'labels:');
  });

  it('reports a key written twice once for both value sets, citing the template lines of both keys', () => {
    const dupkey = join('test', 'fixtures', 'helm', 'dupkey');
    const lines = readFileSync(join(repoRoot, dupkey, 'templates', 'service.yaml'), 'utf8').split('\n');
    const run = runCli(['check', dupkey, '--helm', helm, '--format', 'json']);
    const findings = (
      JSON.parse(run.stdout) as {
        diagnostics: {
          code: string;
          message: string;
          range: { start: { line: number } };
          related?: { message: string; range: { start: { line: number } } }[];
        }[];
      }
    ).diagnostics;
    assert.equal(findings.length, 1, JSON.stringify(findings, null, 2));
    const [f] = findings;
    assert.match(f.message, /"type" is set twice in this mapping/);
    assert.match(f.message, /value sets values\.yaml and ci\/annotated-values\.yaml/);
    assert.doesNotMatch(f.message, /line \d+/, "no line of helm template's output");
    assert.equal(lines[f.range.start.line].trim(), 'type: NodePort');
    const first = f.related?.find((r) => r.message === '"type" is first set here');
    assert.ok(first, JSON.stringify(f.related));
    assert.equal(lines[first.range.start.line].trim(), 'type: ClusterIP');
  });
});
