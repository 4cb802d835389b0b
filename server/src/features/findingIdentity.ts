// A finding's identity: what stays the same while the mistake does, whatever moves around it. It is what a baseline
// records, what SARIF carries as `partialFingerprints` (GitHub code scanning matches alerts by it) and what
// `check --format json` shows. The one place it is computed (docs/ci.md, "Finding identity", documents it):
//
// - the rule (the finding's code);
// - the object: kind, namespace and name; findings on no object (a file that is not valid YAML) name the file instead;
// - the field path in that object down to the place at fault, sequence items named by their `name` where they have
//   one (`spec.template.spec.containers[name=web].ports[0].containerPort`), so adding a container elsewhere does not
//   change it;
// - the value at fault: the text of the finding's span, its whitespace collapsed.
//
// A finding on rendered text (a Kustomize build, a Helm release with a value set) has one identity per render it was
// found in (`Finding.renders`): the build or value set is part of it, and the object, field path and value are the
// rendered ones (the name with the build's prefix, the value the template rendered), never the source line. A finding
// several renders share (a base three overlays include) has the identities of all of them; the first in the order of
// their build names is the one shown. Who compares findings (the baseline, `diff`) takes a finding as known when any of
// its identities is known: an overlay added over a base with a known mistake adds no new mistake to fix.
//
// Never the line, the column or the message (which names counts and other objects that change for other reasons).

import type { Analysis } from '../analysis/analysis';
import type { ManifestFile } from '../model/parseManifest';
import { parseManifest } from '../model/parseManifest';
import type { Resource } from '../model/resources';
import type { Finding } from '../rules/finding';
import { innermostAt, type Span } from '../model/span';
import { treeOf } from '../model/trees';
import type { YNode } from '../model/yamlTree';
import { pathAt } from './cursor';
import { sha256Hex } from '../kustomize/sha256';

export interface FindingIdentity {
  readonly rule: string;
  /** The object at fault; null for findings on no object (then `file` says where). */
  readonly object: { readonly kind: string; readonly namespace: string; readonly name: string } | null;
  /** Only for findings on no object: the file, as the output shows it. */
  readonly file?: string;
  /** For findings on a render: the build or value set, as messages name it (`overlays/prod`, `release shop, values ci/prod.yaml`). */
  readonly build?: string;
  readonly path: string;
  readonly value: string;
}

/** What the identity reads: a finding's code, place and object. */
export interface IdentifiedFinding {
  readonly uri: string;
  readonly span: Span;
  readonly code: string;
  readonly resource?: { readonly kind: string; readonly namespace: string; readonly name: string };
  readonly renders?: Finding['renders'];
}

/** The value at fault is cut to this many characters: a whole selector or a long template line identifies no better. */
const maxValueChars = 200;

/**
 * The identities of `findings`, in their order: for a finding on renders the first of its identities (see
 * `findingIdentitySets`). `textOf` gives the text of every file findings are on (manifests, Kustomize bases and
 * patches, chart templates); files the analysis did not read as manifests (the inputs of a build) are parsed here,
 * once each, to find the object and the field path at the finding's place.
 */
export function findingIdentities(findings: readonly IdentifiedFinding[], analysis: Analysis, textOf: (uri: string) => string | undefined): FindingIdentity[] {
  return findingIdentitySets(findings, analysis, textOf).map((ids) => ids[0]);
}

/**
 * Every identity of each finding, in their order: one for a finding on a file as written; for a finding on renders one
 * per render (`Finding.renders`, each read in its rendered file), sorted by build name.
 */
export function findingIdentitySets(
  findings: readonly IdentifiedFinding[],
  analysis: Analysis,
  textOf: (uri: string) => string | undefined,
): FindingIdentity[][] {
  const analysed = new Map<string, ManifestFile>();
  for (const f of analysis.cluster.files) if (f.resources.length) analysed.set(f.uri, f);
  const parsed = new Map<string, readonly Resource[]>();
  const resourcesOf = (uri: string): readonly Resource[] => {
    const own = analysed.get(uri);
    if (own) return own.resources;
    let list = parsed.get(uri);
    if (!list) {
      const text = textOf(uri);
      list = text === undefined ? [] : parseManifest(uri, text, { defaultNamespace: analysis.config.defaultNamespace }).resources;
      parsed.set(uri, list);
    }
    return list;
  };
  // rendered files are no source: their texts are the analysis's
  const textIn = (uri: string) => textOf(uri) ?? analysed.get(uri)?.text;
  return findings.map((f) => {
    if (!f.renders?.length) return [identityOf(f, resourcesOf(f.uri), textOf(f.uri))];
    const ids = f.renders.map((r) => ({
      ...identityOf({ uri: r.uri, span: r.span, code: f.code, resource: r.resource }, resourcesOf(r.uri), textIn(r.uri), f.uri),
      build: r.build,
    }));
    return ids.sort((a, b) => (a.build < b.build ? -1 : a.build > b.build ? 1 : 0));
  });
}

function identityOf(f: IdentifiedFinding, resources: readonly Resource[], text: string | undefined, file = f.uri): FindingIdentity {
  const at = innermostAt(resources, f.span.start);
  const object = f.resource ?? (at && { kind: at.kind, namespace: at.namespace, name: at.name });
  const value = text === undefined ? '' : text.slice(f.span.start, f.span.end).replace(/\s+/g, ' ').trim().slice(0, maxValueChars);
  return {
    rule: f.code,
    object: object ? { kind: object.kind, namespace: object.namespace, name: object.name } : null,
    ...(!object && { file }),
    path: at ? fieldPath(treeOf(at), f.span.start) : '',
    value,
  };
}

const plainKey = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `spec.ports[name=http].targetPort`; keys that are not plain words in brackets: `metadata.labels["app.kubernetes.io/name"]`. */
export function fieldPath(root: YNode, offset: number): string {
  let out = '';
  for (const step of pathAt(root, offset).path) {
    if (typeof step.key === 'number') {
      const name = step.node.type === 'map' ? step.node.entries.get('name')?.value : undefined;
      out += name?.type === 'scalar' && name.value !== null && name.value !== '' ? `[name=${String(name.value)}]` : `[${step.key}]`;
    } else out += plainKey.test(step.key) ? `${out ? '.' : ''}${step.key}` : `[${JSON.stringify(step.key)}]`;
  }
  return out;
}

/** The canonical text of an identity: the same identity always gives the same text. */
export function identityKey(id: FindingIdentity): string {
  const key = [id.rule, id.object?.kind ?? null, id.object?.namespace ?? null, id.object?.name ?? null, id.file ?? null, id.path, id.value];
  // the build is added only where there is one: the identities of findings on files as written stay what they were
  if (id.build !== undefined) key.push(id.build);
  return JSON.stringify(key);
}

/**
 * The fingerprint of an identity: 32 hex digits of the SHA-256 of its canonical text. `occurrence` tells apart findings
 * of one identity (an object defined twice in a file has two findings on `metadata.name` with the same value): the
 * first has none, the next ones their rank in the output's order.
 */
export function fingerprintOf(id: FindingIdentity, occurrence = 0): string {
  return sha256Hex(identityKey(id) + (occurrence ? `#${occurrence}` : '')).slice(0, 32);
}

/** The fingerprints of identities in output order, each repeated identity counted (see `fingerprintOf`). */
export function fingerprintsOf(ids: readonly FindingIdentity[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const key = identityKey(id);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return fingerprintOf(id, n);
  });
}
