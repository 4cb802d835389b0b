// The field transformers of a native Kustomize build, in Kustomize's order: namespace, namePrefix/nameSuffix, labels,
// annotations, replicas and images (api/internal/builtins), over the field specs of kustomize/fieldSpecs.ts.

import {
  commonAnnotationSpecs,
  commonLabelSpecs,
  gvkSelected,
  imageSpecs,
  metadataLabelSpec,
  namespaceSpecs,
  replicaSpecs,
  splitFieldPath,
  templateLabelSpecs,
  type FieldSpec,
} from './fieldSpecs';
import { entry, get, map, scalar, set, str, type KMap, type KNode, type KScalar, type Src } from './tree';
import { Stop, type Kust, type Res } from './buildContext';
import { curId, gvkOf, isClusterScoped, nameOf, orgId, setMeta, storePreviousId } from './identity';
import { keySrc, srcOf, stringMap } from './load';
import { phrase } from '../l10n/l10n';

/**
 * The namespace transformer (api/filters/namespace): metadata.namespace of every namespaced object, the subjects named
 * `default` of role bindings, then the namespace field specs (the built-in ones and those of the build's
 * configurations); a spec of metadata/name applies only to objects of apiVersion v1, one of metadata/namespace never.
 */
export function namespaceTransformer(k: Kust, ra: Res[], configured: readonly FieldSpec[] = []): void {
  const ns = str(get(k.node, 'namespace'));
  if (!ns) return;
  const src = keySrc(k, 'namespace', 'namespace');
  const specs = [...namespaceSpecs, ...configured].filter((s) => s.path.join('/') !== 'metadata/namespace');
  for (const r of ra) {
    const gvk = gvkOf(r.node);
    storePreviousId(r);
    if (!isClusterScoped(gvk)) setMeta(r, 'namespace', ns, src);
    const roleBinding = gvk.kind === 'RoleBinding' || gvk.kind === 'ClusterRoleBinding';
    // Kustomize's roleBindingHack (namespace filter, default subjects only): every subject named `default`, of any
    // kind, of a RoleBinding or a ClusterRoleBinding (cluster-scoped itself) is put into the new namespace.
    if (roleBinding) {
      const subjects = get(r.node, 'subjects');
      if (subjects?.t === 'q') for (const s of subjects.items) if (s.t === 'm' && str(get(s, 'name')) === 'default') set(s, 'namespace', scalar(ns, src));
    }
    const apiVersion = str(get(r.node, 'apiVersion'));
    for (const spec of specs) {
      if (!gvkSelected(gvk, spec)) continue;
      const path = spec.path.join('/');
      if (path === 'metadata/name') {
        if (apiVersion === 'v1') setMeta(r, 'name', ns, src);
        continue;
      }
      if (roleBinding && path === 'subjects/namespace' && (spec.kind === 'RoleBinding' || spec.kind === 'ClusterRoleBinding')) continue;
      visitField(r.node, spec.path, spec.create, src, (parent, key) => {
        const cur = get(parent, key);
        if (cur && cur.t !== 's')
          throw new Stop(k.uri, src.span, phrase("a namespace field specification names '{0}', which is not a string field", path), true, true);
        if (cur || spec.create) set(parent, key, scalar(ns, src), src);
      });
    }
  }
}

export function prefixSuffix(k: Kust, ra: Res[], field: 'namePrefix' | 'nameSuffix'): void {
  const value = str(get(k.node, field));
  if (!value) return;
  const src = keySrc(k, field, field);
  for (const r of ra) {
    const org = orgId(r).gvk;
    if (org.kind === 'CustomResourceDefinition' || org.kind === 'Namespace' || (org.kind === 'APIService' && org.group === 'apiregistration.k8s.io')) continue;
    const old = nameOf(r.node);
    if (field === 'namePrefix') r.prefixes.push(value);
    else r.suffixes.push(value);
    storePreviousId(r);
    setMeta(r, 'name', field === 'namePrefix' ? value + old : old + value, src);
  }
}

/** Visits the fields a field spec names in one object, creating maps on the way when it says so. */
export function visitField(node: KNode, path: readonly string[], create: boolean, createSrc: Src, visit: (parent: KMap, key: string) => void): void {
  if (node.t === 'q') {
    for (const i of node.items) visitField(i, path, create, createSrc, visit);
    return;
  }
  if (node.t !== 'm' || !path.length) return;
  const [segment, ...rest] = path;
  // `name[]` names a sequence: walked into when present, never created.
  const isSeq = segment.endsWith('[]');
  const head = isSeq ? segment.slice(0, -2) : segment;
  if (!rest.length) {
    visit(node, head);
    return;
  }
  let next = get(node, head);
  if (!next || (next.t === 's' && next.v === null)) {
    if (!create || isSeq) return;
    next = map([], createSrc);
    set(node, head, next, createSrc);
  }
  visitField(next, rest, create, createSrc, visit);
}

function applyToSpecs(ra: readonly Res[], specs: readonly FieldSpec[], fn: (r: Res, spec: FieldSpec) => void): void {
  for (const r of ra) {
    const gvk = gvkOf(r.node);
    for (const spec of specs) if (gvkSelected(gvk, spec)) fn(r, spec);
  }
}

function setPairs(ra: readonly Res[], specs: readonly FieldSpec[], pairs: readonly { key: string; value: string; src: Src }[], via: string): void {
  if (!pairs.length) return;
  const nodes = new Map<Res, Map<string, KScalar>>();
  const shared = (r: Res, p: { key: string; value: string; src: Src }): KScalar => {
    let per = nodes.get(r);
    if (!per) nodes.set(r, (per = new Map()));
    let n = per.get(p.key);
    if (!n) per.set(p.key, (n = scalar(p.value, { ...p.src, via })));
    return n;
  };
  applyToSpecs(ra, specs, (r, spec) => {
    const createSrc = { ...pairs[0].src, via };
    visitField(r.node, spec.path, spec.create, createSrc, (parent, key) => {
      let m = get(parent, key);
      if (!m || (m.t === 's' && m.v === null)) {
        if (!spec.create) return;
        m = map([], createSrc);
        set(parent, key, m, createSrc);
      }
      if (m.t !== 'm') return;
      for (const p of pairs) setShared(m, p.key, shared(r, p));
    });
  });
}

/**
 * Kustomize's label and annotation transformers write one value node per key into every field of an object they
 * set, and overwrite an existing value in place; later changes to one of those fields show in all of them
 * (`labels` with includeTemplates then a patch of metadata.labels changes the template's label too). Kept as is.
 */
function setShared(m: KMap, key: string, value: KScalar): void {
  const e = entry(m, key);
  if (e && e.v.t === 's') assignScalar(e.v, value);
  else if (e) e.v = value;
  else m.e.push({ k: key, ks: value.src, v: value });
}

function assignScalar(into: KScalar, from: KScalar): void {
  into.v = from.v;
  into.raw = from.raw;
  into.src = from.src;
}

export function labelTransformer(k: Kust, ra: Res[], configured: readonly FieldSpec[] = []): void {
  const labels = get(k.node, 'labels');
  if (labels && !(labels.t === 's' && labels.v === null)) {
    if (labels.t !== 'q') throw new Stop(k.uri, keySrc(k, 'labels').span, phrase("'{0}' must be a list", 'labels'));
    for (const l of labels.items) {
      const at = srcOf(l, keySrc(k, 'labels'));
      if (l.t !== 'm') throw new Stop(at.uri, at.span, phrase('an entry of labels must be a map'));
      const pairs = stringMap(k, get(l, 'pairs'), 'pairs', at);
      let specs: FieldSpec[];
      if (get(l, 'includeSelectors')?.t === 's' && (get(l, 'includeSelectors') as { v: unknown }).v === true) specs = [...commonLabelSpecs, ...configured];
      else {
        specs = [metadataLabelSpec];
        if (get(l, 'includeTemplates')?.t === 's' && (get(l, 'includeTemplates') as { v: unknown }).v === true)
          specs.push(...templateLabelSpecs.filter((s) => s !== templateLabelSpecs[0]));
      }
      const fields = get(l, 'fields');
      if (fields && fields.t === 'q')
        for (const f of fields.items) {
          const path = str(get(f, 'path'));
          if (!path) continue;
          specs.push({
            path: splitFieldPath(path),
            kind: str(get(f, 'kind')),
            group: str(get(f, 'group')),
            version: str(get(f, 'version')),
            create: get(f, 'create')?.t === 's' && (get(f, 'create') as { v: unknown }).v === true,
          });
        }
      setPairs(ra, dedupeSpecs(specs), pairs, 'labels');
    }
  }
  const common = stringMap(k, get(k.node, 'commonLabels'), 'commonLabels', keySrc(k, 'commonLabels'));
  setPairs(ra, configured.length ? [...commonLabelSpecs, ...configured] : commonLabelSpecs, common, 'commonLabels');
}

function dedupeSpecs(specs: readonly FieldSpec[]): FieldSpec[] {
  const seen = new Set<string>();
  return specs.filter((s) => {
    const key = `${s.group ?? ''}|${s.version ?? ''}|${s.kind ?? ''}|${s.path.join('/')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function annotationTransformer(k: Kust, ra: Res[], configured: readonly FieldSpec[] = []): void {
  const pairs = stringMap(k, get(k.node, 'commonAnnotations'), 'commonAnnotations', keySrc(k, 'commonAnnotations'));
  setPairs(ra, configured.length ? [...commonAnnotationSpecs, ...configured] : commonAnnotationSpecs, pairs, 'commonAnnotations');
}

export function replicaTransformer(k: Kust, ra: Res[]): void {
  const list = get(k.node, 'replicas');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'replicas').span, phrase("'{0}' must be a list", 'replicas'));
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'replicas'));
    const name = str(get(item, 'name'));
    const countNode = get(item, 'count');
    if (!name || !countNode || countNode.t !== 's' || typeof countNode.v !== 'number')
      throw new Stop(at.uri, at.span, phrase('a replicas entry needs a name and a numeric count'));
    const src = { ...srcOf(countNode, at), via: 'replicas' };
    let found = false;
    for (const r of ra) {
      if (![curId(r), ...r.prevIds].some((x) => x.name === name)) continue;
      const gvk = gvkOf(r.node);
      for (const spec of replicaSpecs)
        if (gvkSelected(gvk, spec)) {
          found = true;
          visitField(r.node, spec.path, true, src, (parent, key) => set(parent, key, scalar(countNode.v, src), src));
        }
    }
    // Kustomize's replica count transformer refuses an entry that names no object it can scale
    if (!found) throw new Stop(at.uri, at.span, phrase('replicas: no {0} is named {1}', [...new Set(replicaSpecs.map((f) => f.kind))].join(', '), name));
  }
}

export function imageTransformer(k: Kust, ra: Res[]): void {
  const list = get(k.node, 'images');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'images').span, phrase("'{0}' must be a list", 'images'));
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'images'));
    const name = str(get(item, 'name'));
    if (!name) throw new Stop(at.uri, at.span, phrase('an images entry needs a name'));
    const newName = str(get(item, 'newName'));
    const newTag = str(get(item, 'newTag'));
    const digest = str(get(item, 'digest'));
    const src = { ...at, via: 'images' };
    const update = (parent: KMap, key: string) => {
      const cur = get(parent, key);
      const image = str(cur);
      if (image === undefined || !imageMatches(image, name)) return;
      set(parent, key, scalar(newImage(image, newName, newTag, digest), src));
    };
    for (const r of ra) {
      // Kustomize's legacy image filter: every `containers` and `initContainers` list anywhere in the object.
      legacyImages(r.node, update, 0);
      const gvk = gvkOf(r.node);
      for (const spec of imageSpecs) if (gvkSelected(gvk, spec) && !isPodTemplatePath(spec.path)) visitField(r.node, spec.path, false, src, update);
    }
  }
}

function isPodTemplatePath(path: readonly string[]): boolean {
  return path.includes('containers') || path.includes('initContainers');
}

function legacyImages(n: KNode, update: (parent: KMap, key: string) => void, depth: number): void {
  if (depth > 100) return;
  if (n.t === 'q') for (const i of n.items) legacyImages(i, update, depth + 1);
  if (n.t !== 'm') return;
  for (const e of n.e) {
    if ((e.k === 'containers' || e.k === 'initContainers') && e.v.t === 'q') {
      for (const c of e.v.items) if (c.t === 'm' && get(c, 'image')) update(c, 'image');
    } else legacyImages(e.v, update, depth + 1);
  }
}

function imageMatches(image: string, name: string): boolean {
  if (!image.startsWith(name)) return false;
  const rest = image.slice(name.length);
  return rest === '' || rest.startsWith(':') || rest.startsWith('@');
}

function splitImage(image: string): { name: string; tag: string; digest: string } {
  let name = image;
  let digest = '';
  const at = name.indexOf('@');
  if (at >= 0) {
    digest = name.slice(at + 1);
    name = name.slice(0, at);
  }
  let tag = '';
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  return { name, tag, digest };
}

function newImage(image: string, newName: string | undefined, newTag: string | undefined, digest: string | undefined): string {
  const cur = splitImage(image);
  const name = newName ?? cur.name;
  if (digest) return `${name}@${digest}`;
  if (newTag) return `${name}:${newTag}`;
  if (cur.digest) return `${name}${cur.tag ? ':' + cur.tag : ''}@${cur.digest}`;
  return cur.tag ? `${name}:${cur.tag}` : name;
}
