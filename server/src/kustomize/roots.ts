// Build roots of a workspace, purely: which folders hold kustomizations, which of them no other kustomization
// includes (the roots, each one apply unit), the files each root reads, and the files that are patches (which the
// project model must not analyse as objects of their own).

import type { RenderedUnit } from '../model/rendered';
import { kustomizationFileNames, parseShared, renderKustomization, type BuildCache, type FileReader, type ParseCache } from './render';
import { get, str, type KNode } from './tree';
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
    const node = parseShared(parsed, text, file).docs.find((d) => d.node)?.node;
    if (!node || node.t !== 'm') continue;
    const dir = dirnameUri(file);
    if (str(get(node, 'kind')) === 'Component') components.add(dir);
    for (const ref of [...entries(get(node, 'resources')), ...entries(get(node, 'bases')), ...entries(get(node, 'components'))]) included.add(resolveUri(dir, ref));
    const patches = get(node, 'patches');
    if (patches?.t === 'q') for (const p of patches.items) addPath(patchFiles, dir, str(get(p, 'path')));
    for (const p of entries(get(node, 'patchesStrategicMerge'))) if (!p.includes('\n')) addPath(patchFiles, dir, p);
    const j = get(node, 'patchesJson6902');
    if (j?.t === 'q') for (const p of j.items) addPath(patchFiles, dir, str(get(p, 'path')));
  }
  const roots: KustomizeRoot[] = [];
  for (const dir of folders) {
    if (included.has(dir) || components.has(dir)) continue;
    const unit = reuse?.(dir) ?? renderKustomization(fsys, dir, { label: base ? relativeUri(base, dir) : dir, parsed, builds });
    roots.push({ dir, file: unit.definedBy, reads: unit.inputs, unit });
  }
  return { folders, components: [...components].sort(), roots, patchFiles };
}

function addPath(into: Set<string>, dir: string, ref: string | undefined): void {
  if (ref) into.add(resolveUri(dir, ref));
}
