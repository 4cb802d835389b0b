// Loading in a native Kustomize build: the kustomization file (which fields are evaluated natively) and the objects of
// its resources, as Kustomize's accumulation reads them (api/internal/target/kusttarget.go).

import { phrase, type Phrase } from '../l10n/l10n';
import { entry, get, map, str, type KMap, type KNode, type Src } from './tree';
import { basenameUri, dirnameUri, resolveUri } from './uriPath';
import { Stop, isFile, kustomizationFileNames, parseCached, readIn, type Ctx, type Kust, type Res } from './buildContext';
import { curId, gvkOf, idEquals, idText, nameOf } from './identity';

const evaluated = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'bases',
  'components',
  'namespace',
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'replicas',
  'images',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'sortOptions',
  'configurations',
  'vars',
  'replacements',
]);

const notEvaluatedWhy: Record<string, Phrase> = {
  helmCharts: phrase('Helm charts are not inflated'),
  helmGlobals: phrase('Helm charts are not inflated'),
  helmChartInflationGenerator: phrase('Helm charts are not inflated'),
  transformers: phrase('transformer configurations and plugins are not run'),
  generators: phrase('generator configurations and plugins are not run'),
  validators: phrase('validator plugins are not run'),
  openapi: phrase('custom OpenAPI schemas are not read'),
  crds: phrase('CRD field specifications are not read'),
  buildMetadata: phrase('buildMetadata annotations are not written'),
};

export function loadKustomization(ctx: Ctx, dir: string, at: Src | undefined): Kust {
  const names = ctx.fsys.list(dir);
  const present = kustomizationFileNames.filter((n) => names?.includes(n));
  const where = at ?? { uri: dir, span: { start: 0, end: 0 } };
  if (!present.length) throw new Stop(where.uri, where.span, phrase('no kustomization.yaml, kustomization.yml or Kustomization in {0}', dir));
  if (present.length > 1) throw new Stop(where.uri, where.span, phrase('{0} holds more than one kustomization file ({1})', dir, present.join(', ')));
  const uri = resolveUri(dir, present[0]);
  // kusttarget.go loads the kustomization file through the folder's own loader, restricted like any other file
  const text = readIn(ctx, dir, uri, at ?? { uri, span: { start: 0, end: 0 } });
  if (text === undefined) throw unreadable(ctx, uri, where, phrase('cannot read {0}', uri));
  const parsed = parseCached(ctx, text, uri);
  if (parsed.error) throw new Stop(uri, parsed.error.span, phrase('YAML error in the kustomization: {0}', parsed.error.message));
  const docs = parsed.docs.filter((d) => d.node !== undefined);
  const first = docs[0]?.node;
  const node = !first || (first.t === 's' && first.v === null) ? map() : first;
  if (node.t !== 'm') throw new Stop(uri, docs[0]?.span ?? { start: 0, end: 0 }, phrase('the kustomization is not a map'));
  // Kustomize refuses a kustomization without a field (an empty file, only comments, `{}`)
  if (!node.e.length) throw new Stop(uri, docs[0]?.span ?? { start: 0, end: 0 }, phrase('{0} is empty', present[0]));
  const notEvaluated: { field: string; stop: Stop }[] = [];
  for (const e of node.e) {
    if (evaluated.has(e.k)) continue;
    const why = notEvaluatedWhy[e.k];
    // a field that is not Kustomize's at all: Kustomize refuses the file as it reads it
    if (!why)
      throw new Stop(
        uri,
        e.ks?.span ?? { start: 0, end: 0 },
        phrase("the field '{0}' is not a Kustomization field Kubernetes Network Lens evaluates", e.k),
        true,
      );
    notEvaluated.push({ field: e.k, stop: new Stop(uri, e.ks?.span ?? { start: 0, end: 0 }, why, true, true) });
  }
  return { uri, dir, node, text, notEvaluated };
}

/**
 * The step of kusttarget.go's accumulateTarget that reads each field not evaluated here: after the resources the
 * transformer configurations, CRD field specifications and schema (and the build metadata); after the builtin
 * generators the Helm charts and generator plugins; after the components the transformers, validators, replacements
 * and vars.
 */
const notEvaluatedStep: Record<string, 'afterResources' | 'afterGenerators' | 'afterComponents'> = {
  crds: 'afterResources',
  openapi: 'afterResources',
  buildMetadata: 'afterResources',
  helmCharts: 'afterGenerators',
  helmGlobals: 'afterGenerators',
  helmChartInflationGenerator: 'afterGenerators',
  generators: 'afterGenerators',
  transformers: 'afterComponents',
  validators: 'afterComponents',
};

/** Stops the build at `step` if the kustomization has a field not evaluated here that Kustomize reads by then. */
export function stopIfNotEvaluated(ctx: Ctx, k: Kust, step: 'afterResources' | 'afterGenerators' | 'afterComponents'): void {
  if (step === 'afterResources')
    // Kustomize reads these files before it refuses anything about them: one that is not there fails the build
    for (const field of ['crds'])
      if (k.notEvaluated.some((n) => n.field === field))
        for (const entry of stringList(k, field)) {
          const uri = resolveUri(k.dir, entry.value);
          if (isFile(ctx, uri)) continue;
          readIn(ctx, k.dir, uri, entry.src);
          throw unreadable(ctx, uri, entry.src, phrase("cannot read the file '{0}'", entry.value));
        }
  const order = ['afterResources', 'afterGenerators', 'afterComponents'];
  const first = k.notEvaluated.find((n) => order.indexOf(notEvaluatedStep[n.field]) <= order.indexOf(step));
  if (first) throw first.stop;
}

export function keySrc(k: Kust, key: string, via?: string): Src {
  const e = entry(k.node, key);
  const span = e?.ks ? { start: e.ks.span.start, end: e.v.src?.span.end ?? e.ks.span.end } : { start: 0, end: 0 };
  return via ? { uri: k.uri, span, via } : { uri: k.uri, span };
}

export function srcOf(n: KNode | undefined, fallback: Src, via?: string): Src {
  const s = n?.src ?? fallback;
  return via ? { uri: s.uri, span: s.span, via } : s;
}

export function stringList(k: Kust, key: string): { value: string; src: Src }[] {
  const n = get(k.node, key);
  if (!n || (n.t === 's' && n.v === null)) return [];
  if (n.t !== 'q') throw new Stop(k.uri, keySrc(k, key).span, phrase("'{0}' must be a list", key));
  return n.items.map((i) => {
    const v = str(i);
    if (v === undefined) throw new Stop(k.uri, srcOf(i, keySrc(k, key)).span, phrase("an entry of '{0}' must be a string", key));
    return { value: v, src: srcOf(i, keySrc(k, key)) };
  });
}

export function stringMap(k: Kust, n: KNode | undefined, what: string, fallback: Src): { key: string; value: string; src: Src }[] {
  if (!n || (n.t === 's' && n.v === null)) return [];
  if (n.t !== 'm') throw new Stop(k.uri, srcOf(n, fallback).span, phrase("'{0}' must be a map of strings", what));
  return n.e.map((e) => {
    const src = { uri: k.uri, span: { start: e.ks?.span.start ?? 0, end: e.v.src?.span.end ?? e.ks?.span.end ?? 0 } };
    // Kustomize reads these into map[string]string: a number or a boolean is refused (quote it), null is ''
    if (e.v.t !== 's' || (e.v.v !== null && typeof e.v.v !== 'string'))
      throw new Stop(
        k.uri,
        src.span,
        e.v.t === 's'
          ? typeof e.v.v === 'number'
            ? phrase("'{0}' must be a map of strings: the value of '{1}' is the number {2} (quote it)", what, e.k, String(e.v.v))
            : phrase("'{0}' must be a map of strings: the value of '{1}' is the boolean {2} (quote it)", what, e.k, String(e.v.v))
          : e.v.t === 'm'
            ? phrase("'{0}' must be a map of strings: the value of '{1}' is a map", what, e.k)
            : phrase("'{0}' must be a map of strings: the value of '{1}' is a list", what, e.k),
      );
    return { key: e.k, value: str(e.v) ?? '', src };
  });
}

export const remote = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)|\?ref=|\.git(?:\/\/|$)/i;

// ---- loading objects ---------------------------------------------------------------------------------------------

export function loadObjects(ctx: Ctx, root: string, uri: string, at: Src): Res[] {
  const text = readIn(ctx, root, uri, at);
  if (text === undefined) throw unreadable(ctx, uri, at, phrase('cannot read {0}', uri));
  const parsed = parseCached(ctx, text, uri);
  if (parsed.error) throw new Stop(uri, parsed.error.span, phrase('YAML error: {0}', parsed.error.message));
  const out: Res[] = [];
  for (const d of parsed.docs) {
    if (!d.node || (d.node.t === 's' && d.node.v === null)) continue;
    if (d.node.t !== 'm') throw new Stop(uri, d.span, phrase('a document that is not a map cannot be a Kubernetes object'));
    const kind = str(get(d.node, 'kind'));
    const items = get(d.node, 'items');
    if (kind?.endsWith('List') && items?.t === 'q') {
      for (const it of items.items) if (it.t === 'm') out.push(newRes(it, it.src));
      continue;
    }
    out.push(newRes(d.node, { uri, span: d.span }));
  }
  for (const r of out) {
    const g = gvkOf(r.node);
    if (!g.kind) throw new Stop(r.docSrc?.uri ?? uri, r.docSrc?.span ?? at.span, phrase('an object in {0} has no kind', basenameUri(uri)));
    if (!nameOf(r.node))
      throw new Stop(r.docSrc?.uri ?? uri, r.docSrc?.span ?? at.span, phrase('the {0} in {1} has no metadata.name', g.kind, basenameUri(uri)));
  }
  return out;
}

/**
 * A file that cannot be read: missing (the build fails), or present in its folder but not available here (too large,
 * excluded from the analysis): then the build is not analysed, rather than said to fail.
 */
export function unreadable(ctx: Ctx, uri: string, at: Src, missing: Phrase): Stop {
  const present = ctx.fsys.list(dirnameUri(uri))?.includes(basenameUri(uri));
  if (present) return new Stop(at.uri, at.span, phrase('{0} is not read (too large, excluded or not text)', basenameUri(uri)), true);
  return new Stop(at.uri, at.span, missing);
}

export function newRes(node: KMap, docSrc?: Src): Res {
  return { node, docSrc, prevIds: [], prefixes: [], suffixes: [], needsHash: false };
}

export function appendAll(into: Res[], add: readonly Res[], at: Src): void {
  for (const r of add) {
    const id = curId(r);
    if (into.some((x) => idEquals(curId(x), id)))
      throw new Stop(at.uri, at.span, phrase('may not add resource with an already registered id: {0}', idText(id)));
    into.push(r);
  }
}
