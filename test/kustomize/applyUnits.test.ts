// Kustomize roots as apply units: each root's build is analysed as its own cluster, the files it reads are not
// analysed again as plain manifests, a finding lands on the source line that causes it, and one cause in several
// overlays is one finding naming them. The language server's workspace gives the same findings as a fresh analysis,
// and renders again only the roots an edit reaches.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { analyzeTexts, type SourceText } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor, diagnosticsFromScratch } from '../../server/src/features/diagnostics';
import { codeLensesFor } from '../../server/src/features/codeLenses';
import { hoverAt } from '../../server/src/features/hover';
import { kustomizeUnits } from '../../server/src/kustomize/applyUnits';
import { parseFiles } from '../../server/src/model/parseManifest';
import { createWorkspace } from '../../server/src/workspace/workspace';

const fixtures = join(__dirname, '..', 'fixtures', 'kustomize');

function sourcesOf(dir: string, out: SourceText[] = []): SourceText[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourcesOf(p, out);
    else out.push({ uri: pathToFileURL(p).href, text: readFileSync(p, 'utf8') });
  }
  return out;
}

const rel = (uri: string) => uri.slice(pathToFileURL(fixtures).href.length + 1);

function lineOf(sources: readonly SourceText[], uri: string, offset: number): string {
  const text = sources.find((s) => s.uri === uri)?.text ?? '';
  const ls = text.lastIndexOf('\n', offset - 1) + 1;
  const le = text.indexOf('\n', offset);
  return text.slice(ls, le < 0 ? undefined : le).trim();
}

describe('Kustomize apply units', () => {
  const sources = sourcesOf(join(fixtures, 'project'));

  it('reports a base mistake once, on the base line, naming every overlay it occurs in', () => {
    const findings = diagnosticsFor(analyzeTexts(sources));
    const codes = findings.map((f) => `${rel(f.uri)} ${f.code}`).sort();
    assert.deepEqual(codes, ['project/base/web.yaml service-selector-no-match', 'project/overlays/experimental/kustomization.yaml kustomize-not-rendered']);
    const f = findings.find((x) => x.code === 'service-selector-no-match')!;
    assert.equal(lineOf(sources, f.uri, f.span.start), 'app: web');
    assert.match(f.message, /\(in the builds of overlays\/dev, overlays\/prod\)$/);
    // one short note per build, on the entry of its kustomization that includes the base (not its first line, not
    // the message again)
    const perOverlay = (f.related ?? []).filter((r) => r.message.includes('in the build of'));
    assert.deepEqual(
      perOverlay.map((r) => `${rel(r.uri)}: ${lineOf(sources, r.uri, r.span.start)}: ${r.message}`),
      [
        'project/overlays/dev/kustomization.yaml: - ../../base: Included here in the build of overlays/dev',
        'project/overlays/prod/kustomization.yaml: - ../../base: Included here in the build of overlays/prod',
      ],
    );
    for (const r of perOverlay) assert.equal(sources.find((s) => s.uri === r.uri)!.text.slice(r.span.start, r.span.end), '../../base');
    const info = findings.find((x) => x.code === 'kustomize-not-rendered')!;
    assert.equal(info.severity, 'information');
    assert.equal(lineOf(sources, info.uri, info.span.start), 'replacements:');
  });

  it('analyses each build as its own cluster: no duplicate objects across overlays, no findings on patches', () => {
    const all = sourcesOf(join(fixtures, 'shop')).concat(sourcesOf(join(fixtures, 'patches')));
    const findings = diagnosticsFor(analyzeTexts(all));
    assert.deepEqual(
      findings.filter((f) => f.code === 'duplicate-resource'),
      [],
    );
    assert.deepEqual(
      findings.filter((f) => rel(f.uri).startsWith('patches/overlay/') && !rel(f.uri).endsWith('kustomization.yaml')),
      [],
    );
    const analysis = analyzeTexts(all);
    const scopes = analysis.scopes().map((s) => s.label ?? '');
    for (const unit of ['overlays/dev', 'overlays/prod', 'overlay'])
      assert.ok(
        scopes.some((l) => l.endsWith(unit)),
        scopes.join(', '),
      );
  });

  it('hovers a base Service with its DNS names in every build that includes it', () => {
    const analysis = analyzeTexts(sources);
    const base = sources.find((s) => s.uri.endsWith('base/web.yaml'))!;
    const offset = base.text.indexOf('name: web\n') + 7;
    const h = hoverAt(analysis, base.uri, offset);
    assert.ok(h, 'a hover on the base line');
    assert.match(h.markdown, /\*\*In the build of overlays\/dev\*\*[\s\S]*`dev-web\.dev\.svc\.cluster\.local`/);
    assert.match(h.markdown, /\*\*In the build of overlays\/prod\*\*[\s\S]*`prod-web\.prod\.svc\.cluster\.local`/);
    assert.equal(base.text.slice(h.span.start, h.span.end), 'web');
  });

  it('puts a code lens on a root kustomization saying what it builds', () => {
    const analysis = analyzeTexts(sources);
    const prod = sources.find((s) => s.uri.endsWith('overlays/prod/kustomization.yaml'))!;
    assert.deepEqual(
      codeLensesFor(analysis, prod.uri).map((l) => l.title),
      ['Builds 2 objects in namespace prod'],
    );
    const experimental = sources.find((s) => s.uri.endsWith('overlays/experimental/kustomization.yaml'))!;
    assert.deepEqual(codeLensesFor(analysis, experimental.uri), [], 'no lens on a build that is not analysed');
  });

  it('leaves files alone when the workspace has no kustomization, or a root only lists files', () => {
    const plain = parseFiles([{ uri: 'file:///w/a.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n' }], { defaultNamespace: 'default' });
    assert.equal(kustomizeUnits(plain, 'default').files, plain);
    const listed = parseFiles(
      [
        { uri: 'file:///w/a.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n' },
        { uri: 'file:///w/kustomization.yaml', text: 'resources:\n- a.yaml\n' },
      ],
      { defaultNamespace: 'default' },
    );
    const apart = parseFiles(
      [
        { uri: 'file:///ex/kustomization.yaml', text: 'namespace: x\nresources:\n- a.yaml\n' },
        { uri: 'file:///ex/a.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n' },
        { uri: 'file:///p/b.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: b\n' },
        { uri: 'c.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: c\n' },
      ],
      { defaultNamespace: 'default' },
    );
    assert.equal(kustomizeUnits(apart, 'default').files.filter((f) => f.rendered).length, 1, 'files with no common folder');
    const units = kustomizeUnits(listed, 'default');
    assert.equal(units.files.find((f) => f.uri === 'file:///w/a.yaml')?.resources.length, 1);
    assert.ok(!units.files.some((f) => f.rendered));
  });

  it('in the workspace: the same findings as a fresh analysis after edits, and only the roots an edit reaches render again', () => {
    const ws = createWorkspace();
    ws.replaceDisk(new Map(sources.map((s) => [s.uri, s.text])), []);
    const first = ws.snapshot();
    assert.deepEqual(diagnosticsFor(first.analysis), diagnosticsFromScratch(analyzeTexts(sources)));
    const prodUri = sources.find((s) => s.uri.endsWith('overlays/prod/kustomization.yaml'))!.uri;
    const renderedBefore = first.analysis.cluster.files.filter((f) => f.rendered);
    ws.open(prodUri, 'namespace: live\nnamePrefix: live-\nresources:\n- ../../base\n', 1);
    const second = ws.snapshot();
    const renderedAfter = second.analysis.cluster.files.filter((f) => f.rendered);
    const devBefore = renderedBefore.find((f) => f.rendered!.label.endsWith('overlays/dev'));
    const devAfter = renderedAfter.find((f) => f.rendered!.label.endsWith('overlays/dev'));
    assert.ok(devBefore && devAfter);
    assert.equal(devAfter, devBefore, 'the dev overlay was not rendered again');
    const edited = sources.map((s) => (s.uri === prodUri ? { uri: s.uri, text: 'namespace: live\nnamePrefix: live-\nresources:\n- ../../base\n' } : s));
    assert.deepEqual(diagnosticsFor(second.analysis, second.earlier), diagnosticsFromScratch(analyzeTexts(edited)));
    assert.match(diagnosticsFor(second.analysis, second.earlier).find((f) => f.code === 'service-selector-no-match')!.message, /overlays\/dev, overlays\/prod/);
    const baseUri = sources.find((s) => s.uri.endsWith('base/web.yaml'))!.uri;
    const fixed = sources.find((s) => s.uri === baseUri)!.text.replace('app: web\n', 'app: web-app\n');
    ws.open(baseUri, fixed, 1);
    const third = ws.snapshot();
    assert.deepEqual(
      diagnosticsFor(third.analysis, third.earlier).map((f) => f.code),
      ['kustomize-not-rendered'],
      'fixing the base fixes every overlay',
    );
  });
});
