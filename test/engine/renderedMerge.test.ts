// The mapping and merging both renderers share (engine/renderedMerge.ts): findings of several renders at one source
// place become one finding naming the renders, a span no mapping covers goes to the render's fallback place, related
// places in renders are mapped, and what the renderer supplies (names, message, added related places, reuse) is used.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeAtSources, sourcePlace, type Landing, type Merging } from '../../server/src/engine/renderedMerge';
import type { RenderedText } from '../../server/src/model/rendered';
import type { Finding } from '../../server/src/rules/finding';

// Two renders of one base file: each renders the base's `port: 80` line, after a line of its own.
const base = 'port: 80\n';
const basePort = { start: base.indexOf('80'), end: base.indexOf('80') + 2 };

interface Render {
  readonly uri: string;
  readonly label: string;
  readonly text: RenderedText;
  readonly definedBy: string;
}

function render(label: string): Render {
  const text = `name: ${label}\nport: 80\n`;
  const port = text.lastIndexOf('80');
  return {
    uri: `render:${label}`,
    label,
    definedBy: `${label}/kustomization.yaml`,
    text: { text, mappings: [{ rendered: { start: port, end: port + 2 }, uri: 'base.yaml', span: basePort, via: label === 'b' ? 'a patch' : undefined }] },
  };
}

const a = render('a');
const b = render('b');
const renders = new Map([a, b].map((r) => [r.uri, r]));
const portIn = (r: Render) => ({ start: r.text.text.lastIndexOf('80'), end: r.text.text.lastIndexOf('80') + 2 });

function finding(r: Render, extra: Partial<Finding> = {}): Finding {
  return { uri: r.uri, span: portIn(r), code: 'port', severity: 'warning', message: `no port in ${r.label}`, ...extra };
}

function landing(r: Render, f: Finding): Landing<Render> {
  return { finding: f, render: r, at: sourcePlace(r.text, r.definedBy, f.span) };
}

function merging(byMessage = false, reuse?: Merging<Render>['reuse']): Merging<Render> {
  return {
    name: (r) => r.label,
    byMessage,
    placeOf(uri, span) {
      const r = renders.get(uri);
      return r && sourcePlace(r.text, r.definedBy, span);
    },
    message: (ls) => `${ls[0].finding.message} [${ls.map((l) => l.render.label).join(', ')}]`,
    related: (ls) =>
      ls.map((l) => ({ uri: l.render.definedBy, span: { start: 0, end: 0 }, message: `in ${l.render.label}${l.at.via ? ` by ${l.at.via}` : ''}` })),
    ...(reuse ? { reuse } : {}),
  };
}

describe('merging findings of renders at their source places', () => {
  it('two renders landing on one source place give one finding naming both, at the source, without fixes', () => {
    const plain = { uri: 'plain.yaml', span: { start: 1, end: 2 }, message: 'a pod' };
    const first = finding(a, {
      related: [{ uri: b.uri, span: portIn(b), message: 'the other port' }, plain],
      fixes: [{ title: 'fix', edits: [{ uri: a.uri, span: portIn(a), newText: '8080' }] }],
      tags: ['unnecessary'],
    });
    const merged = mergeAtSources([landing(a, first), landing(b, finding(b)), landing(b, finding(b))], merging());
    assert.equal(merged.length, 1);
    const [f] = merged;
    assert.deepEqual([f.uri, f.span, f.code, f.severity, f.tags], ['base.yaml', basePort, 'port', 'warning', ['unnecessary']]);
    // the first finding's message (the messages differ, and this renderer merges them), each render named once
    assert.equal(f.message, 'no port in a [a, b]');
    assert.equal(f.fixes, undefined);
    assert.equal(first.fixes?.length, 1, 'the input is left as it was');
    // its related places: the one in a render mapped, the plain one as it was, then the renderer's, once per render
    assert.deepEqual(f.related, [
      { uri: 'base.yaml', span: basePort, message: 'the other port' },
      plain,
      { uri: 'a/kustomization.yaml', span: { start: 0, end: 0 }, message: 'in a' },
      { uri: 'b/kustomization.yaml', span: { start: 0, end: 0 }, message: 'in b by a patch' },
    ]);
    assert.equal(f.related![1], plain);
    // every render once, with the finding's place in it: what the finding's identity reads (features/findingIdentity.ts)
    assert.deepEqual(f.renders, [
      { build: 'a', uri: a.uri, span: portIn(a) },
      { build: 'b', uri: b.uri, span: portIn(b) },
    ]);
  });

  it('keeps findings apart by code, and by message when the renderer asks', () => {
    const findings = [landing(a, finding(a)), landing(b, finding(b)), landing(b, finding(b, { code: 'other' }))];
    assert.deepEqual(
      mergeAtSources(findings, merging()).map((f) => f.message),
      ['no port in a [a, b]', 'no port in b [b]'],
    );
    assert.deepEqual(
      mergeAtSources(findings, merging(true)).map((f) => f.message),
      ['no port in a [a]', 'no port in b [b]', 'no port in b [b]'],
    );
  });

  it('a finding whose span no mapping covers goes to the start of its render fallback place', () => {
    const name = { start: 0, end: 4 };
    const [f] = mergeAtSources([landing(a, finding(a, { span: name }))], merging());
    assert.deepEqual([f.uri, f.span], ['a/kustomization.yaml', { start: 0, end: 0 }]);
    assert.deepEqual(sourcePlace(a.text, a.definedBy, name), { uri: 'a/kustomization.yaml', span: { start: 0, end: 0 } });
  });

  it('hands back what the renderer kept instead of a new finding', () => {
    const kept = new Map<Finding, Finding>();
    const reusing = merging(false, (group, make) => {
      const hit = kept.get(group[0].finding);
      if (hit) return hit;
      const made = make();
      kept.set(group[0].finding, made);
      return made;
    });
    const ls = [landing(a, finding(a)), landing(b, finding(b))];
    const [once] = mergeAtSources(ls, reusing);
    const [again] = mergeAtSources(ls, reusing);
    assert.equal(again, once);
    assert.notEqual(mergeAtSources(ls, merging())[0], once);
  });
});
