// Files of the workspace that are inputs to a build tool or a test harness, not objects (semantics §9.5): Kustomize
// kustomizations and the patches and configurations they list, Helm chart templates, and the files of test suites
// (chainsaw and kuttl tests, Go `testdata/`). They are never read as manifests: a patch has no selector because it is
// a patch, a template is YAML only once rendered, and an assertion is a partial object matched against a live one.
// Decided from the file names and texts alone, with no Kustomize, Helm or test binary.

import { parseDocument } from 'yaml';

export type FileRole =
  /** A `kustomization.yaml` (or `.yml`, or `Kustomization`): a build's recipe. */
  | 'kustomization'
  /**
   * A file a kustomization lists as a patch (strategic merge or JSON 6902) or a configuration, or a file beside a
   * kustomization that it does not list as a resource (a folder with a kustomization is applied with `-k`, so such
   * a file is not part of what is applied: often a patch a script adds), unless it is a whole workload applied on its
   * own (`isStandaloneWorkload`).
   */
  | 'kustomize-input'
  /** A file under a chart's `templates/` folder (a folder with `Chart.yaml`). */
  | 'chart-template'
  /**
   * A file of a test suite (semantics §9.5): in a chainsaw or kuttl test folder, or under a Go `testdata/` folder;
   * also a file of a Go module vendored into `vendor/<module path>/` (a dependency's own test data).
   * A test harness applies, patches and asserts its partial objects; nobody applies them as written.
   */
  | 'test-suite';

export const kustomizationNames: ReadonlySet<string> = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

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
  // A test suite's files are the harness's, whatever else they are: a kustomization a test builds makes no roles.
  const tests = testSuiteFiles(uris, textOf);
  for (const uri of uris) {
    const name = baseName(uri);
    if (name === 'Chart.yaml') chartTemplates.push(`${folderOf(uri)}templates/`);
    if (!kustomizationNames.has(name) || tests.has(uri)) continue;
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
    if (mine && !mine.has(uri) && !roles.has(uri) && !isStandaloneWorkload(textOf(uri))) roles.set(uri, 'kustomize-input');
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
  for (const uri of tests) roles.set(uri, 'test-suite');
  return roles;
}

/**
 * Whether a file a kustomization beside it does not list is a whole object applied on its own with `kubectl apply
 * -f` (a load generator kept out of the build, a Service a dev tool applies beside it), not a patch: a Deployment,
 * StatefulSet or DaemonSet written with its selector and a container image, or a Service written with its selector
 * and its ports. A strategic-merge patch repeats neither the selector nor, usually, the image; a Service's patch
 * changes its ports, its type or its selector, rarely both of the last two.
 */
function isStandaloneWorkload(text: string | undefined): boolean {
  if (text === undefined || !/^[ \t]+selector:/m.test(text)) return false;
  if (/^kind:[ \t]*["']?(?:Deployment|StatefulSet|DaemonSet)["']?[ \t]*$/m.test(text)) return /^[ \t-]+image:/m.test(text);
  return /^kind:[ \t]*["']?Service["']?[ \t]*$/m.test(text) && /^[ \t]+ports:/m.test(text) && /(?:^|[\s{,-])port:/m.test(text);
}

/** chainsaw's test file names (its default `--test-file`, either extension). */
const chainsawTestNames = new Set(['chainsaw-test.yaml', 'chainsaw-test.yml']);
/** kuttl's (and chainsaw's manifest-based tests') step files: `<index>-<name>.yaml`, the name without dots. */
const stepFile = /^\d+-[^.]+\.yaml$/;
/** The step files that only a harness reads: `<index>-assert….yaml` and `<index>-errors….yaml`. */
const assertOrErrorsFile = /^\d+-(?:assert|errors)[^.]*\.yaml$/;
/** A test harness's own document: chainsaw's Test or StepTemplate, kuttl's TestSuite, TestStep or TestAssert. */
const harnessApi = /^apiVersion:[ \t]*["']?(?:chainsaw\.kyverno\.io|kuttl\.dev|kudo\.dev)\/[^\s"']+["']?[ \t]*(?:#.*)?$/m;
const harnessKind = /^kind:[ \t]*["']?(Test|StepTemplate|TestSuite|TestStep|TestAssert)["']?[ \t]*(?:#.*)?$/m;

/** The harness kind a file's text declares at its top level (`TestSuite`, `Test`…), if any. */
export function harnessKindOf(text: string): string | undefined {
  if (!text.includes('chainsaw.kyverno.io') && !text.includes('kuttl.dev') && !text.includes('kudo.dev')) return undefined;
  return harnessApi.test(text) ? harnessKind.exec(text)?.[1] : undefined;
}

/**
 * Whether a file's name or text can make other files test-suite files (a chainsaw test, a kuttl suite or step, an
 * assert or errors step): an edit that changes this answer changes other files' roles.
 */
export function isTestSuiteEvidence(uri: string, text: string | undefined): boolean {
  const name = baseName(uri);
  return chainsawTestNames.has(name) || assertOrErrorsFile.test(name) || (text !== undefined && harnessKindOf(text) !== undefined);
}

/**
 * Whether an edit of a file from `before` to `after` can change which files are test suites' (its evidence comes or
 * goes, or a kuttl TestSuite's testDirs may have changed).
 */
export function changesTestSuites(uri: string, before: string, after: string): boolean {
  if (before === after) return false;
  if (harnessKindOf(before) === 'TestSuite' || harnessKindOf(after) === 'TestSuite') return true;
  return isTestSuiteEvidence(uri, before) !== isTestSuiteEvidence(uri, after);
}

/**
 * The files of test suites, decided from evidence (semantics §9.5):
 * - a folder holding a chainsaw test (`chainsaw-test.yaml`, or a document of kind Test or StepTemplate of
 *   chainsaw.kyverno.io), a kuttl TestStep or TestAssert, or an `NN-assert….yaml` / `NN-errors….yaml` step (the
 *   naming kuttl and chainsaw's manifest-based tests share) is a test folder, with its sub-folders;
 * - a kuttl TestSuite file is the suite's, and each folder of its `testDirs` holding `NN-name.yaml` steps a test folder;
 * - every file with a folder named `testdata` on its path below the workspace's common folder (Go test fixtures);
 * - every file of a Go module copied into a `vendor/` folder by `go mod vendor` (`vendor/k8s.io/apimachinery/…`: a
 *   module path begins with a domain name, so the folder right under `vendor` has a dot): a dependency's own test
 *   data, never what the repository deploys. A `vendor/cert-manager/` folder of manifests a team keeps is read.
 * A folder of numbered manifests (`00-namespace.yaml`, `01-app.yaml`) with no assert or errors step is not a test.
 */
function testSuiteFiles(uris: readonly string[], textOf: (uri: string) => string | undefined): Set<string> {
  const out = new Set<string>();
  const testFolders = new Set<string>();
  const suiteDirs: string[] = [];
  for (const uri of uris) {
    const name = baseName(uri);
    if (chainsawTestNames.has(name) || assertOrErrorsFile.test(name)) {
      testFolders.add(folderOf(uri));
      continue;
    }
    if (!/\.ya?ml$/.test(name)) continue;
    const text = textOf(uri);
    const kind = text === undefined ? undefined : harnessKindOf(text);
    if (kind === undefined) continue;
    if (kind !== 'TestSuite') {
      testFolders.add(folderOf(uri));
      continue;
    }
    out.add(uri);
    for (const dir of readTestDirs(text!)) suiteDirs.push(`${resolvePath(folderOf(uri), dir)}/`);
  }
  // A test case of a suite is a folder right under one of its testDirs that holds steps.
  for (const uri of uris) {
    if (!stepFile.test(baseName(uri))) continue;
    const folder = folderOf(uri);
    const parent = folderOf(folder.slice(0, -1));
    if (suiteDirs.includes(parent)) testFolders.add(folder);
  }
  const common = commonFolder(uris);
  for (const uri of uris) {
    if (out.has(uri)) continue;
    const folders = uri.slice(common.length).split('/').slice(0, -1);
    if (folders.includes('testdata') || folders.some((f, i) => f === 'vendor' && folders[i + 1]?.includes('.'))) {
      out.add(uri);
      continue;
    }
    for (let cut = uri.indexOf('/'); cut >= 0; cut = uri.indexOf('/', cut + 1)) {
      if (testFolders.has(uri.slice(0, cut + 1))) {
        out.add(uri);
        break;
      }
    }
  }
  return out;
}

/** A kuttl TestSuite's `testDirs`, as written (relative to its file's folder). */
function readTestDirs(text: string): string[] {
  let doc: unknown;
  try {
    doc = parseDocument(text, { uniqueKeys: false, strict: false, logLevel: 'error' }).toJS({ maxAliasCount: 100 });
  } catch {
    return [];
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [];
  const dirs = (doc as Record<string, unknown>).testDirs;
  return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string' && d !== '' && !d.includes('\n')).map((d) => d.replace(/\/+$/, '')) : [];
}

/** The deepest folder (ending in `/`) that holds every URI. */
function commonFolder(uris: readonly string[]): string {
  if (!uris.length) return '';
  let common = folderOf(uris[0]);
  for (const uri of uris) while (common && !uri.startsWith(common)) common = folderOf(common.slice(0, -1));
  return common;
}

/**
 * A kustomization's build inputs, as written: `patches[].path`, `patchesStrategicMerge[]` (unless inline),
 * `patchesJson6902[].path`, `replacements[].path`, `configurations[]`, `transformers[]`, `generators[]`,
 * `validators[]`, `crds[]`, `openapi.path`; and its `resources` entries (objects, not inputs).
 */
function readKustomization(text: string): { readonly inputs: string[]; readonly resources: string[] } {
  let doc: unknown;
  try {
    doc = parseDocument(text, { uniqueKeys: false, strict: false, logLevel: 'error' }).toJS({ maxAliasCount: 100 });
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
  const resources = list(k.resources)
    .filter((r): r is string => typeof r === 'string')
    .filter(local);
  return { inputs: out.filter(local), resources };
}

function baseName(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

export function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}

/** A relative path against a folder URI (ending in `/`), with `.` and `..` segments folded. */
export function resolvePath(folder: string, relative: string): string {
  // `file:///a/b/` keeps `file://` and `/`; a plain path keeps its leading `/` if it has one.
  const authority = folder.indexOf('//');
  const head = authority >= 0 ? folder.slice(0, Math.max(folder.indexOf('/', authority + 2), authority + 2)) : '';
  const rooted = folder.slice(head.length).startsWith('/');
  const segments = folder
    .slice(head.length)
    .split('/')
    .filter((s) => s !== '');
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
