// A kustomization's `configurations`: transformer configuration files (lists of field specs) merged into the built-in
// ones of kustomize/fieldSpecs.ts, as Kustomize does (api/internal/plugins/builtinconfig, kusttarget.go).
//
// Each kustomization's configuration is the built-in one and its own files; the accumulator of a build merges in the
// configuration of every kustomization it includes (a base's nameReference fixes names at the top) and of its
// components, and a kustomization's transformers run over what is accumulated by then. Only the additions are kept
// here; the transformers put them after the built-in specs. What is not read here (a key other than namespace,
// commonLabels, commonAnnotations, nameReference and varReference with entries, a conflicting field spec) stops the
// build as not evaluated (the real Kustomize may run it).

import { phrase } from '../l10n/l10n';
import { commonAnnotationSpecs, commonLabelSpecs, nameReferences, splitFieldPath, varReferenceSpecs, type FieldSpec, type NameReference } from './fieldSpecs';
import { get, type KNode, type Src } from './tree';
import { Stop, parseCached, readIn, type Ctx, type Kust } from './buildContext';
import { stringList, unreadable } from './load';
import { resolveUri } from './uriPath';
import { addVars, type Var } from './vars';

/** The field specs a build's configurations add to the built-in ones. */
export interface TransformerConfig {
  namespace: FieldSpec[];
  commonLabels: FieldSpec[];
  commonAnnotations: FieldSpec[];
  varReference: FieldSpec[];
  nameReference: NameReference[];
  /** The vars of the build (kept with the configuration: both are the accumulator's, merged from base to root). */
  vars: Var[];
}

export function emptyConfig(): TransformerConfig {
  return { namespace: [], commonLabels: [], commonAnnotations: [], varReference: [], nameReference: [], vars: [] };
}

type ListKey = 'namespace' | 'commonLabels' | 'commonAnnotations' | 'varReference';
const listKeys: readonly ListKey[] = ['namespace', 'commonLabels', 'commonAnnotations', 'varReference'];
// The other keys (namePrefix, nameSuffix, labels, templateLabels, volumeClaimTemplateLabels, images, replicas, or
// one Kustomize refuses): an empty list changes nothing; with entries the file is not read here.

const builtIn: Readonly<Record<ListKey, readonly FieldSpec[]>> = {
  namespace: [],
  commonLabels: commonLabelSpecs,
  commonAnnotations: commonAnnotationSpecs,
  varReference: varReferenceSpecs,
};

function sameSpec(a: FieldSpec, b: FieldSpec): boolean {
  return (
    (a.group ?? '') === (b.group ?? '') && (a.version ?? '') === (b.version ?? '') && (a.kind ?? '') === (b.kind ?? '') && a.path.join('/') === b.path.join('/')
  );
}

/** Kustomize's FsSlice merge: a spec already there is skipped; with another `create` it is a conflict (not merged here). */
function mergeSpecs(into: FieldSpec[], add: readonly FieldSpec[], known: readonly FieldSpec[], at: Src): void {
  for (const s of add) {
    const there = known.find((x) => sameSpec(x, s)) ?? into.find((x) => sameSpec(x, s));
    if (there) {
      if (there.create !== s.create) throw conflict(at, s);
      continue;
    }
    into.push(s);
  }
}

function conflict(at: Src, s: FieldSpec): Stop {
  return new Stop(
    at.uri,
    at.span,
    phrase("transformer configurations with conflicting field specifications for '{0}' are not merged here", s.path.join('/')),
    true,
    true,
  );
}

/** Merges `add` into `into` (the accumulator's configuration), as ResAccumulator.MergeConfig does. */
export function mergeConfig(into: TransformerConfig, add: TransformerConfig, at: Src): void {
  for (const key of listKeys) mergeSpecs(into[key], add[key], builtIn[key], at);
  addVars(into.vars, add.vars);
  for (const ref of add.nameReference) {
    const same = (r: NameReference) =>
      (r.referral.group ?? '') === (ref.referral.group ?? '') &&
      (r.referral.version ?? '') === (ref.referral.version ?? '') &&
      r.referral.kind === ref.referral.kind;
    const i = into.nameReference.findIndex(same);
    const fields = i >= 0 ? [...into.nameReference[i].fields] : [];
    mergeSpecs(fields, ref.fields, nameReferences.find(same)?.fields ?? [], at);
    if (i >= 0) into.nameReference[i] = { referral: into.nameReference[i].referral, fields };
    else into.nameReference.push({ referral: ref.referral, fields });
  }
}

/** The name references of a build: the built-in ones, with the configured fields added to their referral's entry. */
export function nameReferencesOf(config: TransformerConfig): readonly NameReference[] {
  if (!config.nameReference.length) return nameReferences;
  const same = (a: NameReference['referral'], b: NameReference['referral']) =>
    (a.group ?? '') === (b.group ?? '') && (a.version ?? '') === (b.version ?? '') && a.kind === b.kind;
  const out = nameReferences.map((r) => {
    const extra = config.nameReference.find((c) => same(c.referral, r.referral));
    return extra ? { referral: r.referral, fields: [...r.fields, ...extra.fields] } : r;
  });
  for (const c of config.nameReference) if (!nameReferences.some((r) => same(r.referral, c.referral))) out.push(c);
  return out;
}

/** The configuration of `k`'s own `configurations` files (Kustomize reads them after the resources). */
export function readConfigurations(ctx: Ctx, k: Kust): TransformerConfig {
  const config = emptyConfig();
  for (const item of stringList(k, 'configurations')) {
    const uri = resolveUri(k.dir, item.value);
    const text = readIn(ctx, k.dir, uri, item.src);
    if (text === undefined) throw unreadable(ctx, uri, item.src, phrase("cannot read the file '{0}'", item.value));
    mergeConfig(config, parseConfig(ctx, text, uri, item), item.src);
  }
  return config;
}

function parseConfig(ctx: Ctx, text: string, uri: string, item: { value: string; src: Src }): TransformerConfig {
  const parsed = parseCached(ctx, text, uri);
  // Kustomize reads the file strictly (yaml.UnmarshalStrict); what it would refuse or read otherwise is left to it
  const notRead = (key: string) =>
    new Stop(item.src.uri, item.src.span, phrase("the transformer configuration '{0}' is not read here: {1}", item.value, key), true, true);
  if (parsed.error)
    throw new Stop(item.src.uri, item.src.span, phrase("the transformer configuration '{0}' is not read here (YAML error)", item.value), true, true);
  const docs = parsed.docs.filter((d) => d.node !== undefined && !(d.node.t === 's' && d.node.v === null));
  const config = emptyConfig();
  if (!docs.length) return config;
  if (docs.length > 1 || docs[0].node?.t !== 'm')
    throw new Stop(item.src.uri, item.src.span, phrase("the transformer configuration '{0}' is not read here (not one map)", item.value), true, true);
  for (const e of docs[0].node.e) {
    if (isEmpty(e.v)) continue;
    if (listKeys.includes(e.k as ListKey)) config[e.k as ListKey].push(...fieldSpecs(e.v, () => notRead(e.k)));
    else if (e.k === 'nameReference') {
      if (e.v.t !== 'q') throw notRead(e.k);
      for (const ref of e.v.items) {
        if (ref.t !== 'm' || ref.e.some((x) => !['group', 'version', 'kind', 'fieldSpecs'].includes(x.k))) throw notRead(e.k);
        const not = () => notRead(e.k);
        const kind = plain(get(ref, 'kind'), not);
        if (!kind) throw not();
        const referral: NameReference['referral'] = { kind, group: plain(get(ref, 'group'), not), version: plain(get(ref, 'version'), not) };
        const fields: FieldSpec[] = [];
        mergeSpecs(
          fields,
          fieldSpecs(get(ref, 'fieldSpecs'), () => notRead(e.k)),
          [],
          item.src,
        );
        mergeConfig(config, { ...emptyConfig(), nameReference: [{ referral, fields }] }, item.src);
      }
    } else throw notRead(e.k);
  }
  for (const key of listKeys) {
    const merged: FieldSpec[] = [];
    mergeSpecs(merged, config[key], [], item.src);
    config[key] = merged;
  }
  return config;
}

function isEmpty(n: KNode): boolean {
  return (n.t === 's' && n.v === null) || (n.t === 'q' && !n.items.length);
}

/** A string field of a field spec: absent or empty is undefined, anything but a string is not read here. */
function plain(n: KNode | undefined, notRead: () => Stop): string | undefined {
  if (!n || (n.t === 's' && n.v === null)) return undefined;
  if (n.t !== 's' || typeof n.v !== 'string') throw notRead();
  return n.v || undefined;
}

function fieldSpecs(n: KNode | undefined, notRead: () => Stop): FieldSpec[] {
  if (!n || isEmpty(n)) return [];
  if (n.t !== 'q') throw notRead();
  return n.items.map((i) => {
    if (i.t !== 'm' || i.e.some((x) => !['group', 'version', 'kind', 'path', 'create'].includes(x.k))) throw notRead();
    const create = get(i, 'create');
    if (create && !(create.t === 's' && (typeof create.v === 'boolean' || create.v === null))) throw notRead();
    const path = plain(get(i, 'path'), notRead);
    const group = plain(get(i, 'group'), notRead);
    const version = plain(get(i, 'version'), notRead);
    const kind = plain(get(i, 'kind'), notRead);
    if (!path) throw notRead();
    return { path: splitFieldPath(path), group, version, kind, create: create?.t === 's' && create.v === true };
  });
}
