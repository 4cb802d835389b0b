// The recall harness's own reading of a repository's manifests (independent of the product's model): every plain
// YAML document with apiVersion, kind and metadata.name, with its line range, its namespace and the part of the
// repository it is applied with ("group"), so that a mutation class can tell which references work as written.
//
// Skipped: files holding `{{` (templates of some tool), kustomization files, files under a `templates/` folder; and no
// mistake is planted into objects of a kustomization that copies fields between objects (replacements, vars).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';

export interface ManifestObject {
  /** Path relative to the repository folder, with `/`. */
  readonly file: string;
  readonly text: string;
  readonly doc: Document.Parsed;
  // The document as plain data.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly js: any;
  readonly kind: string;
  readonly name: string;
  /** metadata.namespace, or '' when not set (the implicit namespace). */
  readonly namespace: string;
  /** 0-based lines of the document's first and last content line. */
  readonly startLine: number;
  readonly endLine: number;
  /** Its nearest kustomization folder, else its top-level folder. */
  readonly group: string;
  /** Its top-level folder ('.' for a file at the top). Objects see those of the same group or top-level folder. */
  readonly top: string;
}

const kustomizationNames = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export function listYamlFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === '.git') continue;
      const p = join(dir, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue; // a dangling symlink
      }
      if (st.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name) && st.size <= 1024 * 1024) out.push(p);
    }
  };
  walk(root);
  return out;
}

/** Offsets of the starts of lines. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

export function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function groupOf(root: string, absFile: string): string {
  let dir = dirname(absFile);
  for (;;) {
    if (kustomizationNames.some((k) => existsSync(join(dir, k)))) return relative(root, dir).split(sep).join('/') || '.';
    if (dir === root || !dir.startsWith(root + sep)) break;
    dir = dirname(dir);
  }
  const rel = relative(root, absFile).split(sep);
  return rel.length > 1 ? rel[0] : '.';
}

/**
 * Whether the object's group is a kustomization that copies fields between objects (`replacements`, `vars`): a
 * mistake planted into a source field is copied to its targets, so the build still works, and it is no mistake.
 */
export function rewrittenByBuild(root: string, o: ManifestObject): boolean {
  if (o.group === '.' && !kustomizationNames.some((k) => existsSync(join(root, k)))) return false;
  for (const k of kustomizationNames) {
    const path = join(root, o.group, k);
    if (!existsSync(path)) continue;
    try {
      return /^(replacements|vars):/m.test(readFileSync(path, 'utf8'));
    } catch {
      return false;
    }
  }
  return false;
}

/** Whether the harness reads this file (see the header). */
export function readable(relFile: string, text: string): boolean {
  const parts = relFile.split('/');
  if (kustomizationNames.includes(parts[parts.length - 1])) return false;
  if (parts.includes('templates')) return false;
  return !text.includes('{{');
}

/** The objects of one file's text. `group` is given by the caller (tests pass any string). */
export function parseObjects(file: string, text: string, group: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text) as Document.Parsed[];
  } catch {
    return out;
  }
  if (!Array.isArray(docs)) return out;
  const starts = lineStarts(text);
  for (const doc of docs) {
    if (doc.errors.length || !doc.contents || !isMap(doc.contents)) continue;
    let js;
    try {
      js = doc.toJS({ maxAliasCount: 100 });
    } catch {
      continue;
    }
    if (!js || typeof js !== 'object') continue;
    const name = js.metadata?.name;
    if (typeof js.apiVersion !== 'string' || typeof js.kind !== 'string' || typeof name !== 'string' || !name) continue;
    const range = doc.contents.range;
    if (!range) continue;
    const ns = js.metadata?.namespace;
    out.push({
      file,
      text,
      doc,
      js,
      kind: js.kind,
      name,
      namespace: typeof ns === 'string' ? ns : '',
      startLine: lineOf(starts, range[0]),
      endLine: lineOf(starts, Math.max(range[0], range[1] - 1)),
      group,
      top: file.includes('/') ? file.slice(0, file.indexOf('/')) : '.',
    });
  }
  return out;
}

export function readRepository(root: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const abs of listYamlFiles(root)) {
    const rel = relative(root, abs).split(sep).join('/');
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch {
      continue;
    }
    if (!readable(rel, text)) continue;
    out.push(...parseObjects(rel, text, groupOf(root, abs)));
  }
  return out;
}

// ---- pod templates ----

const templatePaths: Record<string, (string | number)[]> = {
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  ReplicationController: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
  Pod: [],
};

export function isWorkload(o: ManifestObject): boolean {
  return o.kind in templatePaths;
}

/** The YAML path of the pod template (metadata + spec) of a workload; [] for a Pod. */
export function templatePath(o: ManifestObject): (string | number)[] | undefined {
  return templatePaths[o.kind];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function getPath(value: any, path: readonly (string | number)[]): any {
  let v = value;
  for (const p of path) v = v?.[p];
  return v;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function podTemplate(o: ManifestObject): { labels: Record<string, string>; spec: any } | undefined {
  const path = templatePath(o);
  if (!path) return undefined;
  const t = getPath(o.js, path);
  if (!t || typeof t !== 'object') return undefined;
  const labels: Record<string, string> = {};
  const raw = t.metadata?.labels;
  if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw)) labels[k] = String(v);
  return { labels, spec: t.spec ?? {} };
}

export function stringMap(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v === 'object') return undefined;
    out[k] = String(v);
  }
  return out;
}

export function subsetOf(selector: Record<string, string>, labels: Record<string, string>): boolean {
  const keys = Object.keys(selector);
  return keys.length > 0 && keys.every((k) => labels[k] === selector[k]);
}

// ---- locating source text ----

/** A text edit on one file's text. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

export function applyEdit(text: string, e: Edit): string {
  return text.slice(0, e.start) + e.replacement + text.slice(e.end);
}

export function nodeAt(doc: Document.Parsed, path: readonly (string | number)[]): Node | undefined {
  const n = doc.getIn(path, true);
  return n && typeof n === 'object' ? (n as Node) : undefined;
}

/**
 * The offsets of a scalar's value inside its source text (inside the quotes), when the source spells the value
 * literally (no escapes, no folding); undefined otherwise.
 */
export function scalarValueSpan(text: string, node: Node | undefined): { start: number; end: number; value: string } | undefined {
  if (!node || !isScalar(node) || !node.range) return undefined;
  const s = node as Scalar;
  const value = typeof s.value === 'string' || typeof s.value === 'number' ? String(s.value) : undefined;
  if (value === undefined) return undefined;
  const [a, b] = s.range!;
  const src = text.slice(a, b);
  let inner: number;
  if (s.type === 'PLAIN') inner = 0;
  else if (s.type === 'QUOTE_DOUBLE' || s.type === 'QUOTE_SINGLE') inner = 1;
  else return undefined;
  if (src.slice(inner, inner + value.length) !== value) return undefined;
  return { start: a + inner, end: a + inner + value.length, value };
}

/** The key scalar of the pair `key` in the map at `path`. */
export function keyNode(doc: Document.Parsed, path: readonly (string | number)[], key: string): Scalar | undefined {
  const m = path.length ? doc.getIn(path, true) : doc.contents;
  if (!isMap(m)) return undefined;
  for (const item of (m as YAMLMap).items as Pair[]) {
    if (isScalar(item.key) && String((item.key as Scalar).value) === key) return item.key as Scalar;
  }
  return undefined;
}

export function seqLength(doc: Document.Parsed, path: readonly (string | number)[]): number {
  const s = doc.getIn(path, true);
  return isSeq(s) ? s.items.length : 0;
}
