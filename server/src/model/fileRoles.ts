// Files of the workspace that are inputs to a build tool, not objects (semantics §9.5): Kustomize kustomizations and
// the patches and configurations they list, and Helm chart templates. They are never read as manifests: a patch has
// no selector because it is a patch, and a template is YAML only once rendered. Decided from the file names and the
// kustomizations' texts alone, with no Kustomize or Helm binary.

import { parseDocument } from 'yaml';

export type FileRole =
  /** A `kustomization.yaml` (or `.yml`, or `Kustomization`): a build's recipe. */
  | 'kustomization'
  /**
   * A file a kustomization lists as a patch (strategic merge or JSON 6902) or a configuration, or a file beside a
   * kustomization that it does not list as a resource (a folder with a kustomization is applied with `-k`, so such
   * a file is not part of what is applied: often a patch a script adds).
   */
  | 'kustomize-input'
  /** A file under a chart's `templates/` folder (a folder with `Chart.yaml`). */
  | 'chart-template';

const kustomizationNames = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

/** Whether a file's text can change the roles of other files (a kustomization, a Chart.yaml). */
export function isProjectFile(uri: string): boolean {
  const name = baseName(uri);
  return kustomizationNames.has(name) || name === 'Chart.yaml';
}

/** The files with a role other than "manifest", by URI. `textOf` reads a kustomization's text. */
export function fileRoles(uris: readonly string[], textOf: (uri: string) => string | undefined): ReadonlyMap<string, FileRole> {
  const roles = new Map<string, FileRole>();
  const chartTemplates: string[] = [];
  /** folder of a kustomization → the files it lists as resources */
  const listed = new Map<string, Set<string>>();
  for (const uri of uris) {
    const name = baseName(uri);
    if (name === 'Chart.yaml') chartTemplates.push(`${folderOf(uri)}templates/`);
    if (!kustomizationNames.has(name)) continue;
    roles.set(uri, 'kustomization');
    const text = textOf(uri);
    if (text === undefined) continue;
    const folder = folderOf(uri);
    const k = readKustomization(text);
    for (const input of k.inputs) roles.set(resolvePath(folder, input), 'kustomize-input');
    const mine = listed.get(folder) ?? new Set<string>();
    for (const r of k.resources) mine.add(resolvePath(folder, r));
    listed.set(folder, mine);
  }
  for (const uri of uris) {
    const mine = listed.get(folderOf(uri));
    if (mine && !mine.has(uri) && !roles.has(uri)) roles.set(uri, 'kustomize-input');
  }
  if (chartTemplates.length) {
    const prefixes = new Set(chartTemplates);
    for (const uri of uris) {
      for (let cut = uri.indexOf('/'); cut >= 0; cut = uri.indexOf('/', cut + 1)) {
        if (prefixes.has(uri.slice(0, cut + 1))) {
          roles.set(uri, 'chart-template');
          break;
        }
      }
    }
  }
  // A kustomization that is itself listed somewhere stays a kustomization.
  for (const uri of uris) if (kustomizationNames.has(baseName(uri))) roles.set(uri, 'kustomization');
  return roles;
}

/**
 * A kustomization's build inputs, as written: `patches[].path`, `patchesStrategicMerge[]` (unless inline),
 * `patchesJson6902[].path`, `replacements[].path`, `configurations[]`, `transformers[]`, `generators[]`,
 * `validators[]`, `crds[]`, `openapi.path`; and its `resources` entries (objects, not inputs).
 */
function readKustomization(text: string): { readonly inputs: string[]; readonly resources: string[] } {
  let doc: unknown;
  try {
    doc = parseDocument(text, { uniqueKeys: false, strict: false }).toJS({ maxAliasCount: 100 });
  } catch {
    return { inputs: [], resources: [] };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { inputs: [], resources: [] };
  const k = doc as Record<string, unknown>;
  const out: string[] = [];
  const pathOf = (v: unknown) => {
    if (typeof v === 'string' && !v.includes('\n') && !/^\s*[{[]/.test(v)) out.push(v);
  };
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  // A bare string in `patches` names a patch file too: kustomize refuses the form, but the file is a patch all the same.
  for (const p of list(k.patches)) pathOf(p && typeof p === 'object' ? (p as Record<string, unknown>).path : p);
  for (const p of list(k.patchesStrategicMerge)) pathOf(p);
  for (const p of list(k.patchesJson6902)) if (p && typeof p === 'object') pathOf((p as Record<string, unknown>).path);
  for (const p of list(k.replacements)) if (p && typeof p === 'object') pathOf((p as Record<string, unknown>).path);
  for (const key of ['configurations', 'transformers', 'generators', 'validators', 'crds']) for (const p of list(k[key])) pathOf(p);
  if (k.openapi && typeof k.openapi === 'object') pathOf((k.openapi as Record<string, unknown>).path);
  const local = (p: string) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(p);
  const resources = list(k.resources).filter((r): r is string => typeof r === 'string').filter(local);
  return { inputs: out.filter(local), resources };
}

function baseName(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}

/** A relative path against a folder URI (ending in `/`), with `.` and `..` segments folded. */
function resolvePath(folder: string, relative: string): string {
  // `file:///a/b/` keeps `file://` and `/`; a plain path keeps its leading `/` if it has one.
  const authority = folder.indexOf('//');
  const head = authority >= 0 ? folder.slice(0, Math.max(folder.indexOf('/', authority + 2), authority + 2)) : '';
  const rooted = folder.slice(head.length).startsWith('/');
  const segments = folder.slice(head.length).split('/').filter((s) => s !== '');
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(head ? encodeSegment(part) : part);
  }
  return `${head}${rooted ? '/' : ''}${segments.join('/')}`;
}

/** Path segments in URIs are percent-encoded the way the workspace spells them; plain names pass unchanged. */
function encodeSegment(s: string): string {
  return /^[A-Za-z0-9._~-]+$/.test(s) ? s : encodeURIComponent(s);
}
