// Where a Kustomize root includes a file: the entry of its `resources`, `bases` or `components` list that leads to it,
// directly (the file, or a folder above it) or through the kustomizations it includes. A finding on a base that three
// overlays build points at each overlay's `- ../../base` line, the place a reader follows to the base.

import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { folderOf, kustomizationNames, resolvePath } from './fileRoles';
import type { ManifestFile } from './parseManifest';
import type { Span } from './span';

/** Kustomizations a chain of includes passes at most; a longer or circular one is no answer. */
const maxDepth = 16;

/** A list entry of a kustomization: what it names, resolved, and where it is written. */
interface Entry {
  readonly target: string;
  readonly span: Span;
}

/** Memoized per file (immutable). */
const entriesOf = new WeakMap<ManifestFile, readonly Entry[]>();

/** The `resources`, `bases` and `components` entries of a kustomization, resolved against its folder. */
function includeEntries(file: ManifestFile): readonly Entry[] {
  const kept = entriesOf.get(file);
  if (kept) return kept;
  const { uri, text } = file;
  const entries: Entry[] = [];
  try {
    const doc = parseDocument(text, { uniqueKeys: false, strict: false, logLevel: 'error' });
    if (isMap(doc.contents)) {
      for (const pair of doc.contents.items) {
        if (!isScalar(pair.key) || !['resources', 'bases', 'components'].includes(String(pair.key.value)) || !isSeq(pair.value)) continue;
        for (const item of pair.value.items) {
          if (!isScalar(item) || typeof item.value !== 'string' || !item.range) continue;
          const target = resolvePath(folderOf(uri), item.value.replace(/\/+$/, ''));
          entries.push({ target, span: { start: item.range[0], end: item.range[1] } });
        }
      }
    }
  } catch {
    // a kustomization that does not parse includes nothing here; its build says why
  }
  entriesOf.set(file, entries);
  return entries;
}

/** The kustomization file of a folder URI (no trailing `/`), if the workspace has one. */
function kustomizationIn(folder: string, fileOf: (uri: string) => ManifestFile | undefined): ManifestFile | undefined {
  for (const name of kustomizationNames) {
    const file = fileOf(`${folder}/${name}`);
    if (file) return file;
  }
  return undefined;
}

/**
 * The place in the kustomization `root` that includes `file`: the entry naming it or a folder above it, else the
 * entry of a kustomization that reaches it through the ones it includes. Undefined when none does (the file is
 * the kustomization itself, or a patch it names elsewhere).
 */
export function includingEntry(root: string, file: string, fileOf: (uri: string) => ManifestFile | undefined): Span | undefined {
  const rootFile = fileOf(root);
  if (!rootFile || root === file) return undefined;
  const entries = includeEntries(rootFile);
  const direct = entries.find((e) => e.target === file || file.startsWith(`${e.target}/`));
  if (direct) return direct.span;
  const seen = new Set([root]);
  const reaches = (kustomization: ManifestFile, depth: number): boolean => {
    if (depth > maxDepth || seen.has(kustomization.uri)) return false;
    seen.add(kustomization.uri);
    return includeEntries(kustomization).some((e) => {
      if (e.target === file || file.startsWith(`${e.target}/`)) return true;
      const next = kustomizationIn(e.target, fileOf);
      return next !== undefined && reaches(next, depth + 1);
    });
  };
  for (const e of entries) {
    const next = kustomizationIn(e.target, fileOf);
    if (next && reaches(next, 1)) return e.span;
  }
  return undefined;
}
