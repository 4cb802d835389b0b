// Build roots of a workspace, purely: which folders hold kustomizations, which of them no other kustomization
// includes (the roots, each one apply unit), the files each root reads, and the files that are patches (which the
// project model must not analyse as objects of their own).

import type { RenderedUnit, RenderProblem } from '../model/rendered';
import { isKustomizationUri, parseShared, renderKustomization, type BuildCache, type FileReader, type ParseCache, type RenderOptions } from './render';
import { get, str, type KNode } from './tree';
import { dirnameUri, relativeUri, resolveUri } from './uriPath';
import { phrase, worded } from '../l10n/l10n';

export interface KustomizeRoot {
  /** The folder of the root kustomization. */
  readonly dir: string;
  /** Its kustomization file. */
  readonly file: string;
  /** Every workspace file its build reads (kustomizations, resources, patches, generator inputs). */
  readonly reads: readonly string[];
  readonly unit: RenderedUnit;
  /** A root whose inputs another tool writes first (`rootDecision`): neither built natively nor by the real Kustomize. */
  readonly builtElsewhere?: boolean;
}

export interface KustomizeLayout {
  /** Folders holding a kustomization (of kind Kustomization or Component). */
  readonly folders: readonly string[];
  /** Folders whose kustomization is of kind Component (never built on their own). */
  readonly components: readonly string[];
  readonly roots: readonly KustomizeRoot[];
  /** Files listed as patches (patches, patchesStrategicMerge, patchesJson6902) by any kustomization or component. */
  readonly patchFiles: ReadonlySet<string>;
  /**
   * The workspace files a folder's build would read, found from the kustomizations' texts alone (resources, bases and
   * components followed into their folders; patches): what a root that does not render leaves unknown.
   */
  readsOf(dir: string): readonly string[];
  /** The kustomization folders a folder's kustomization includes directly (resources, bases, components). */
  includesOf(dir: string): readonly string[];
  /** Whether a kustomization folder may be built on its own: not a Component, and it builds something. */
  buildsAlone(dir: string): boolean;
}

/** What one kustomization names, as written (paths resolved against its folder). */
interface KustomizationRefs {
  /** resources, bases and components: files or folders */
  readonly includes: readonly string[];
  /** patch files */
  readonly patches: readonly string[];
  /** Whether it builds anything of its own: resources, bases, components or generators. */
  readonly builds: boolean;
  readonly isComponent: boolean;
  /** resources entries naming a file the workspace does not hold, with where they are written */
  readonly missing: readonly { readonly ref: string; readonly span?: { readonly start: number; readonly end: number } }[];
}

/**
 * Whether a kustomization folder is a standalone root, built on its own (`kubectl apply -k <dir>`), or only a part of
 * bigger builds: kustomize itself builds any folder, so this is the project's reading of the layout.
 * - A folder another kustomization includes (resources, bases, components) is a part of that build (a base).
 * - A Component (kind: Component) is never built alone: kustomize refuses to.
 * - A kustomization that builds nothing of its own (no resources, bases, components or generators: only patches,
 *   transformers or settings) has nothing to patch when built alone; it is a fragment that some other tool completes.
 * Returns why the folder is not built natively when it is a root that cannot be: a kustomization beside a Chart.yaml
 * whose listed resources are missing reads the chart's rendered output, written there by a config-management plugin
 * or a script before the build (Argo CD's kustomized-helm pattern), so the build is not done here.
 */
export function rootDecision(
  dir: string,
  refs: KustomizationRefs,
  included: ReadonlySet<string>,
  hasChart: boolean,
  file: string,
): 'part' | 'root' | RenderProblem {
  if (included.has(dir) || refs.isComponent || !refs.builds) return 'part';
  if (hasChart && refs.missing.length) {
    const m = refs.missing[0];
    return {
      uri: file,
      span: m.span ?? { start: 0, end: 0 },
      severity: 'information',
      code: 'kustomize-not-rendered',
      ...worded(
        phrase(
          "Not analysed as a Kustomize build: this folder is also a Helm chart, and '{0}' is not in the workspace: it is the chart's rendered output, which a plugin or script writes before the build.",
          m.ref,
        ),
      ),
    };
  }
  return 'root';
}

const generatorKeys = ['configMapGenerator', 'secretGenerator', 'generators', 'helmCharts', 'helmChartInflationGenerator'];

/**
 * A kustomization's references, read once per parsed tree (kept while its text is unchanged) and folder; only which
 * listed resources exist is asked again each time.
 */
const refsMemo = new WeakMap<
  KNode,
  {
    readonly dir: string;
    readonly refs: KustomizationRefs;
    readonly probes: readonly { readonly uri: string; readonly ref: string; readonly span?: { readonly start: number; readonly end: number } }[];
  }
>();

function refsOf(node: KNode, dir: string, exists: (uri: string) => boolean): KustomizationRefs {
  let kept = refsMemo.get(node);
  if (kept?.dir !== dir) {
    kept = readRefs(node, dir);
    refsMemo.set(node, kept);
  }
  const missing = kept.probes.filter((p) => !exists(p.uri)).map((p) => ({ ref: p.ref, span: p.span }));
  return missing.length ? { ...kept.refs, missing } : kept.refs;
}

function readRefs(
  node: KNode,
  dir: string,
): { dir: string; refs: KustomizationRefs; probes: { uri: string; ref: string; span?: { start: number; end: number } }[] } {
  const resources = entries(get(node, 'resources'));
  const includes = [...resources, ...entries(get(node, 'bases')), ...entries(get(node, 'components'))].filter(isLocal).map((r) => resolveUri(dir, r));
  const patches: string[] = [];
  const p = get(node, 'patches');
  // A bare string in `patches` is a patch file too (kustomize refuses the form, but the author meant a patch).
  if (p?.t === 'q') for (const item of p.items) addPath(patches, dir, item.t === 's' ? str(item) : str(get(item, 'path')));
  for (const x of entries(get(node, 'patchesStrategicMerge'))) if (!x.includes('\n')) addPath(patches, dir, x);
  const j = get(node, 'patchesJson6902');
  if (j?.t === 'q') for (const x of j.items) addPath(patches, dir, str(get(x, 'path')));
  // the local resources, whose presence is asked on every call
  const probes: { uri: string; ref: string; span?: { start: number; end: number } }[] = [];
  const rs = get(node, 'resources');
  if (rs?.t === 'q') {
    for (const item of rs.items) {
      const ref = str(item);
      if (ref && isLocal(ref)) probes.push({ uri: resolveUri(dir, ref), ref, span: item.t === 's' ? item.src?.span : undefined });
    }
  }
  // Remote resources count: the build fetches them (and is reported as not rendered here).
  const builds = resources.length > 0 || includes.length > 0 || generatorKeys.some((k) => get(node, k) !== undefined);
  return { dir, refs: { includes, patches, builds, isComponent: str(get(node, 'kind')) === 'Component', missing: [] }, probes };
}

function isLocal(ref: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(ref) && !/^(github\.com|gitlab\.com|bitbucket\.org)\//.test(ref) && !ref.startsWith('git@');
}

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
  render: Pick<RenderOptions, 'loadRestrictor' | 'workspace' | 'shown'> = {},
  onRendered?: (done: number, total: number) => void,
): KustomizeLayout {
  const files = [...workspaceUris].filter((u) => isKustomizationUri(u)).sort();
  const folders = [...new Set(files.map(dirnameUri))].sort();
  const uris = new Set(workspaceUris);
  const folderSet = new Set(folders);
  const exists = (uri: string) => uris.has(uri) || folderSet.has(uri) || fsys.read(uri) !== undefined || fsys.list(uri) !== undefined;
  const included = new Set<string>();
  const components = new Set<string>();
  const patchFiles = new Set<string>();
  const refs = new Map<string, KustomizationRefs>();
  const fileOf = new Map<string, string>();
  for (const file of files) {
    const text = fsys.read(file);
    if (text === undefined) continue;
    const node = parseShared(parsed, text, file).docs.find((d) => d.node)?.node;
    if (!node || node.t !== 'm') continue;
    const dir = dirnameUri(file);
    const r = refsOf(node, dir, exists);
    refs.set(dir, r);
    fileOf.set(dir, file);
    if (r.isComponent) components.add(dir);
    for (const inc of r.includes) included.add(inc);
    for (const pf of r.patches) patchFiles.add(pf);
  }
  const roots: KustomizeRoot[] = [];
  const cycles = unreachableCycles(folders, refs, included);
  const decisionOf = (dir: string, r: KustomizationRefs) =>
    cycles.has(dir) ? 'root' : rootDecision(dir, r, included, uris.has(resolveUri(dir, 'Chart.yaml')), fileOf.get(dir)!);
  // how many are built, for the progress of a long run
  const toBuild = onRendered ? folders.filter((dir) => (refs.get(dir) ? decisionOf(dir, refs.get(dir)!) === 'root' : !included.has(dir))).length : 0;
  let built = 0;
  for (const dir of folders) {
    const r = refs.get(dir);
    if (!r) {
      if (included.has(dir)) continue;
    } else {
      const decision = decisionOf(dir, r);
      if (decision === 'part') continue;
      if (decision !== 'root') {
        const file = fileOf.get(dir)!;
        const unit: RenderedUnit = {
          kind: 'kustomize',
          id: `kustomize:${file}`,
          label: base ? relativeUri(base, dir) : dir,
          definedBy: file,
          inputs: [file],
          problems: [decision],
        };
        roots.push({ dir, file, reads: unit.inputs, unit, builtElsewhere: true });
        continue;
      }
    }
    const unit = reuse?.(dir) ?? renderKustomization(fsys, dir, { label: base ? relativeUri(base, dir) : dir, parsed, builds, ...render });
    roots.push({ dir, file: unit.definedBy, reads: unit.inputs, unit });
    onRendered?.(++built, toBuild);
  }
  const readsOf = (dir: string): string[] => {
    const out = new Set<string>();
    const seen = new Set<string>();
    const walk = (d: string) => {
      if (seen.has(d)) return;
      seen.add(d);
      const r = refs.get(d);
      if (!r) return;
      out.add(fileOf.get(d)!);
      for (const pf of r.patches) if (uris.has(pf)) out.add(pf);
      for (const inc of r.includes) {
        if (refs.has(inc)) walk(inc);
        else if (uris.has(inc)) out.add(inc);
      }
    };
    walk(dir);
    return [...out].sort();
  };
  const includesOf = (dir: string): string[] => (refs.get(dir)?.includes ?? []).filter((inc) => refs.has(inc));
  const buildsAlone = (dir: string): boolean => {
    const r = refs.get(dir);
    return !!r && !r.isComponent && r.builds;
  };
  return { folders, components: [...components].sort(), roots, patchFiles, readsOf, includesOf, buildsAlone };
}

/**
 * Kustomizations that include themselves through others (a overlay listing the workspace root, whose kustomization
 * lists the overlay) while no root reaches them: each is included, so none would be a root and the cycle would go
 * unsaid. They are built as roots, and the build reports the cycle. Components are left out (never built alone).
 */
function unreachableCycles(folders: readonly string[], refs: ReadonlyMap<string, KustomizationRefs>, included: ReadonlySet<string>): Set<string> {
  const reached = new Set<string>();
  const walk = (start: string) => {
    const stack = [start];
    while (stack.length) {
      const d = stack.pop()!;
      if (reached.has(d)) continue;
      reached.add(d);
      for (const inc of refs.get(d)?.includes ?? []) if (refs.has(inc)) stack.push(inc);
    }
  };
  for (const dir of folders) if (!included.has(dir)) walk(dir);
  const out = new Set<string>();
  for (const dir of folders) {
    const r = refs.get(dir);
    if (!r || reached.has(dir) || r.isComponent || !r.builds) continue;
    // does dir reach itself?
    const seen = new Set<string>();
    const stack = [...r.includes];
    while (stack.length) {
      const d = stack.pop()!;
      if (d === dir) {
        out.add(dir);
        break;
      }
      if (seen.has(d) || !refs.has(d)) continue;
      seen.add(d);
      stack.push(...refs.get(d)!.includes);
    }
  }
  return out;
}

function addPath(into: string[] | Set<string>, dir: string, ref: string | undefined): void {
  if (!ref) return;
  if (Array.isArray(into)) into.push(resolveUri(dir, ref));
  else into.add(resolveUri(dir, ref));
}
