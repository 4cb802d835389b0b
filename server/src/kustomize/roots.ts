// Build roots of a workspace, purely: which folders hold kustomizations, which of them no other kustomization
// includes (the roots, each one apply unit), the files each root reads, and the files that are patches (which the
// project model must not analyse as objects of their own).

import type { RenderedUnit } from '../model/rendered';
import { kustomizationFileNames, parseShared, renderKustomization, type BuildCache, type FileReader, type ParseCache } from './render';
import { get, str, type KNode, type ParseResult } from './tree';
import { basenameUri, dirnameUri, relativeUri, resolveUri } from './uriPath';

export interface KustomizeRoot {
  /** The folder of the root kustomization. */
  readonly dir: string;
  /** Its kustomization file. */
  readonly file: string;
  /** Every workspace file its build reads (kustomizations, resources, patches, generator inputs). */
  readonly reads: readonly string[];
  readonly unit: RenderedUnit;
}

export interface KustomizeLayout {
  /** Folders holding a kustomization (of kind Kustomization or Component). */
  readonly folders: readonly string[];
  /** Folders whose kustomization is of kind Component (never built on their own). */
  readonly components: readonly string[];
  readonly roots: readonly KustomizeRoot[];
  /** Files listed as patches (patches, patchesStrategicMerge, patchesJson6902) by any kustomization or component. */
  readonly patchFiles: ReadonlySet<string>;
}

const kustNames: ReadonlySet<string> = new Set(kustomizationFileNames);

function entries(node: KNode | undefined): string[] {
  if (!node || node.t !== 'q') return [];
  return node.items.map((i) => str(i) ?? '').filter((s) => s !== '');
}

/**
 * `workspaceUris`: every file of the workspace. `base` (optional) is the workspace folder, for labels. `reuse` may
 * hand back a root's unit from an earlier render whose inputs did not change. `parsed` and `builds` are shared by the renders.
 */
export function discoverKustomizations(
  workspaceUris: readonly string[],
  fsys: FileReader,
  base?: string,
  reuse?: (dir: string) => RenderedUnit | undefined,
  parsed?: ParseCache,
  builds?: BuildCache,
): KustomizeLayout {
  const files = [...workspaceUris].filter((u) => kustNames.has(basenameUri(u))).sort();
  const folders = [...new Set(files.map(dirnameUri))].sort();
  const included = new Set<string>();
  const components = new Set<string>();
  const patchFiles = new Set<string>();
  for (const file of files) {
    const text = fsys.read(file);
    if (text === undefined) continue;
    const refs = refsOf(parseShared(parsed, text, file), file);
    if (!refs) continue;
    if (refs.component) components.add(dirnameUri(file));
    for (const u of refs.included) included.add(u);
    for (const u of refs.patches) patchFiles.add(u);
  }
  const roots: KustomizeRoot[] = [];
  for (const dir of folders) {
    if (included.has(dir) || components.has(dir)) continue;
    const unit = reuse?.(dir) ?? renderKustomization(fsys, dir, { label: base ? relativeUri(base, dir) : dir, parsed, builds });
    roots.push({ dir, file: unit.definedBy, reads: unit.inputs, unit });
  }
  return { folders, components: [...components].sort(), roots, patchFiles };
}

interface Refs {
  readonly component: boolean;
  /** What the kustomization includes (resources, bases, components) and the patch files it lists, as URIs. */
  readonly included: readonly string[];
  readonly patches: readonly string[];
}

/** A kustomization's references, once per parse (a parse is kept while its text is unchanged). */
const refsMemo = new WeakMap<ParseResult, { readonly file: string; readonly refs: Refs | undefined }>();

function refsOf(result: ParseResult, file: string): Refs | undefined {
  const hit = refsMemo.get(result);
  if (hit?.file === file) return hit.refs;
  const refs = readRefs(result, file);
  refsMemo.set(result, { file, refs });
  return refs;
}

function readRefs(result: ParseResult, file: string): Refs | undefined {
  const node = result.docs.find((d) => d.node)?.node;
  if (!node || node.t !== 'm') return undefined;
  const dir = dirnameUri(file);
  const included = [...entries(get(node, 'resources')), ...entries(get(node, 'bases')), ...entries(get(node, 'components'))].map((ref) => resolveUri(dir, ref));
  const patches: string[] = [];
  const add = (ref: string | undefined) => {
    if (ref) patches.push(resolveUri(dir, ref));
  };
  const list = get(node, 'patches');
  if (list?.t === 'q') for (const p of list.items) add(str(get(p, 'path')));
  for (const p of entries(get(node, 'patchesStrategicMerge'))) if (!p.includes('\n')) add(p);
  const j = get(node, 'patchesJson6902');
  if (j?.t === 'q') for (const p of j.items) add(str(get(p, 'path')));
  return { component: str(get(node, 'kind')) === 'Component', included, patches };
}
