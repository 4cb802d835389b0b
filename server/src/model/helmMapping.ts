// `helm template` output → a RenderedText: the rendered YAML plus a source map back to the chart's templates.
// Every rendered document carries `# Source: <chart>/templates/<file>` (or `<chart>/charts/<sub>/templates/<file>`);
// the document maps to that template, each key to the template line with the same key at the same path of keys, and
// each scalar value to that line's value text (the literal, or the template expression that produced it). What
// cannot be found (keys that come from `include` or `toYaml`) maps to the nearest enclosing key that can, and at
// worst to the template's first line. Pure.

import { parseAllDocuments } from 'yaml';
import { fastParse } from './fastYaml';
import { estimateNestingDepth, libraryDocuments, maxNestingDepth } from './parseManifest';
import { inFolder, type Chart, type TextOf, type ValueSet } from './helmCharts';
import type { RenderedText, SourceMapping } from './rendered';
import type { Span } from './span';
import { at, isMap, isSeq, str, type YNode } from './yamlTree';

/** A key line of a template: `  port: {{ .Values.port }}` at path `spec.ports.port`. */
interface TemplateKey {
  readonly path: string;
  readonly keySpan: Span;
  /** The value text after the colon (without a trailing comment), when the line has one. */
  readonly valueSpan?: Span;
  /** Index of the `---`-separated section of the template file. */
  readonly section: number;
}

interface TemplateIndex {
  readonly byPath: ReadonlyMap<string, readonly TemplateKey[]>;
  readonly sections: number;
  /** The first key of each section (its document's first line). */
  readonly firstKeys: readonly (TemplateKey | undefined)[];
}

/**
 * The template file a `# Source:` path names, as a workspace URI: the first segment is the chart's name, then
 * `charts/<folder>/` per subchart level. Undefined when the file is not in the workspace (a packaged subchart).
 */
export function templateUriOf(chart: Chart, charts: readonly Chart[], sourcePath: string, textOf: TextOf): string | undefined {
  const segments = sourcePath.split('/');
  if (segments.length < 2) return undefined;
  let root = chart.root;
  let i = 1;
  while (segments[i] === 'charts' && i + 2 < segments.length) {
    const folder = segments[i + 1];
    // The folder of a subchart is usually its name; else find the subchart of that name.
    const byFolder = inFolder(root, `charts/${folder}`);
    const sub = charts.find((c) => c.root === byFolder) ?? charts.find((c) => c.parent === root && c.name === folder);
    if (!sub) return undefined;
    root = sub.root;
    i += 2;
  }
  const uri = inFolder(root, segments.slice(i).join('/'));
  return textOf(uri) === undefined ? undefined : uri;
}

export interface RenderedDocumentInfo {
  /** The `# Source:` path helm printed. */
  readonly source?: string;
  /** The template file in the workspace, when found. */
  readonly templateUri?: string;
  readonly span: Span;
}

export interface MappedRender {
  readonly rendered: RenderedText;
  readonly documents: readonly RenderedDocumentInfo[];
}

/**
 * Maps `helm template` output to its templates. `fallback` is where documents whose template is not in the
 * workspace go (the chart's Chart.yaml, at its name).
 */
export function mapHelmOutput(text: string, chart: Chart, charts: readonly Chart[], valueSet: ValueSet, textOf: TextOf): MappedRender {
  const via = valueSet.label;
  const mappings: SourceMapping[] = [];
  const documents: RenderedDocumentInfo[] = [];
  const sources = sourceComments(text);
  const indexes = new Map<string, TemplateIndex>();
  const indexOf = (uri: string): TemplateIndex => {
    let idx = indexes.get(uri);
    if (!idx) indexes.set(uri, (idx = indexTemplate(textOf(uri) ?? '')));
    return idx;
  };
  /** How many documents of each template (and of each kind in it) came before (a template with `---` makes several). */
  const seen = new Map<string, number>();
  let parsed: ReturnType<typeof libraryDocuments>['documents'] = [];
  let duplicates: ReturnType<typeof libraryDocuments>['duplicates'] = [];
  // The fast parser first (the same documents when it accepts a text, model/fastYaml.ts; it refuses repeated keys).
  // Output nested deeper than any manifest is not mapped (the parse of the rendered text refuses it too).
  const fast = fastParse(text);
  if (fast) {
    parsed = fast;
    duplicates = fast.map(() => []);
  } else if (estimateNestingDepth(text) <= maxNestingDepth) {
    try {
      ({ documents: parsed, duplicates } = libraryDocuments(text));
    } catch {
      parsed = [];
      duplicates = [];
    }
  }
  for (const [docIndex, doc] of parsed.entries()) {
    const source = sourceFor(sources, doc.span);
    const templateUri = source ? templateUriOf(chart, charts, source.path, textOf) : undefined;
    documents.push({ source: source?.path, templateUri, span: doc.span });
    if (!doc.root) continue;
    if (!templateUri) {
      mappings.push({ rendered: doc.span, uri: chart.chartYaml, span: chart.nameSpan, via: source ? `${via}, ${source.path}` : via });
      continue;
    }
    const index = indexOf(templateUri);
    const nth = seen.get(templateUri) ?? 0;
    seen.set(templateUri, nth + 1);
    const kindKey = `${templateUri}\u0000${str(at(doc.root, 'kind')) ?? ''}`;
    const nthOfKind = seen.get(kindKey) ?? 0;
    seen.set(kindKey, nthOfKind + 1);
    const section = index.sections > 1 ? sectionOf(textOf(templateUri) ?? '', index, doc.root, nth, nthOfKind) : 0;
    const first = index.firstKeys[section] ?? index.firstKeys.find((k) => k);
    mappings.push({ rendered: doc.span, uri: templateUri, span: first ? lineSpanOf(first) : { start: 0, end: 0 }, via });
    const occurrences = new Map<string, number>();
    // A key written twice: the tree holds the later one; the first is the template's earlier key of that path.
    const firstOf = new Map((duplicates[docIndex] ?? []).map((d) => [d.later.start, d.first]));
    walk(doc.root, '', (path, keySpan, value) => {
      const first = firstOf.get(keySpan.start);
      const k = (occurrences.get(path) ?? 0) + (first ? 1 : 0);
      occurrences.set(path, k + 1);
      const candidates = index.byPath.get(path);
      if (!candidates?.length) return;
      const inSection = candidates.filter((c) => c.section === section);
      const pool = inSection.length ? inSection : candidates;
      const hit = pool[Math.min(k, pool.length - 1)];
      if (first) {
        const earlier = pool[Math.min(k - 1, pool.length - 1)];
        mappings.push({ rendered: first, uri: templateUri, span: earlier.keySpan, via });
      }
      const line = lineSpanOf(hit);
      mappings.push({ rendered: { start: keySpan.start, end: value.span.end }, uri: templateUri, span: line, via });
      mappings.push({ rendered: keySpan, uri: templateUri, span: hit.keySpan, via });
      if (value.type === 'scalar' && hit.valueSpan) mappings.push({ rendered: value.span, uri: templateUri, span: hit.valueSpan, via });
    });
  }
  mappings.sort((a, b) => a.rendered.start - b.rendered.start || b.rendered.end - a.rendered.end);
  return { rendered: { text, mappings }, documents };
}

function lineSpanOf(k: TemplateKey): Span {
  return { start: k.keySpan.start, end: k.valueSpan?.end ?? k.keySpan.end };
}

/** Every mapping entry of a tree with its path of keys (sequence positions left out: `spec.ports.port`). */
function walk(node: YNode, path: string, visit: (path: string, keySpan: Span, value: YNode) => void): void {
  if (isMap(node)) {
    for (const [key, e] of node.entries) {
      const p = path ? `${path}.${key}` : key;
      visit(p, e.keySpan, e.value);
      walk(e.value, p, visit);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) walk(item, path, visit);
  }
}

interface SourceComment {
  readonly offset: number;
  readonly path: string;
}

function sourceComments(text: string): SourceComment[] {
  const out: SourceComment[] = [];
  const re = /^# Source: (.+?)\s*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ offset: m.index, path: m[1] });
  return out;
}

/** The document's `# Source:` comment: the first inside its span (the parser may start it at `---`), else the last before it. */
function sourceFor(list: readonly SourceComment[], span: Span): SourceComment | undefined {
  let before: SourceComment | undefined;
  for (const s of list) {
    if (s.offset >= span.start) return s.offset < span.end ? s : before;
    before = s;
  }
  return before;
}

/**
 * The key lines of a template, by their path of keys. Lines that are template actions (`{{- if … }}`), comments
 * and keys written as template expressions are passed over; indentation gives the path, as YAML reads it.
 */
/** Template lines longer than this are not indexed. */
const maxKeyLine = 4096;

/**
 * The `---` section of a template that made a rendered document. helm prints a template's documents sorted by kind
 * (its install order: a Service before the Deployments written above it), so the nth document is not the nth section:
 * the section whose `kind` is the document's and whose `metadata.name`, when written as a literal, is its name;
 * else the nth of those of that kind; else the nth section.
 */
function sectionOf(template: string, index: TemplateIndex, root: YNode, nth: number, nthOfKind: number): number {
  const kind = str(at(root, 'kind'));
  const name = str(at(root, 'metadata', 'name'));
  const literal = (k: TemplateKey | undefined) =>
    k?.valueSpan ? template.slice(k.valueSpan.start, k.valueSpan.end).replace(/^(["'])(.*)\1$/, '$2') : undefined;
  const sectionsOfKind = (index.byPath.get('kind') ?? []).filter((k) => literal(k) === kind).map((k) => k.section);
  if (!sectionsOfKind.length) return Math.min(nth, index.sections - 1);
  const named = (index.byPath.get('metadata.name') ?? []).find((k) => sectionsOfKind.includes(k.section) && literal(k) === name);
  if (named) return named.section;
  // sections of that kind whose name is a template expression, in order; the documents of that kind before this one
  return sectionsOfKind[Math.min(nthOfKind, sectionsOfKind.length - 1)];
}

export function indexTemplate(text: string): TemplateIndex {
  const byPath = new Map<string, TemplateKey[]>();
  const firstKeys: (TemplateKey | undefined)[] = [undefined];
  let section = 0;
  let stack: { indent: number; key: string }[] = [];
  let offset = 0;
  for (const rawLine of text.split('\n')) {
    const lineStart = offset;
    offset += rawLine.length + 1;
    const line = rawLine.replace(/\r$/, '');
    if (/^---(\s|$)/.test(line)) {
      section++;
      firstKeys.push(undefined);
      stack = [];
      continue;
    }
    const trimmed = line.trimStart();
    // (very long lines are not hand-written keys; they are passed over rather than scanned)
    if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('{{') || line.length > maxKeyLine) continue;
    let indent = line.length - trimmed.length;
    let rest = trimmed;
    // `- key: value`: each dash opens a sequence item whose keys sit two columns further in
    while (/^-(\s|$)/.test(rest)) {
      const after = rest.slice(1);
      const spaces = after.length - after.trimStart().length;
      indent += 1 + spaces;
      rest = after.trimStart();
      // a new item: keys of the previous item at this depth are closed
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    }
    const m = /^("([^"{}]*)"|'([^'{}]*)'|([^\s"'{}#:][^{}#:]*?))\s*:(?=\s|$)/.exec(rest);
    if (!m) continue;
    const key = m[2] ?? m[3] ?? m[4];
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const path = [...stack.map((s) => s.key), key].join('.');
    const keyStart = lineStart + (line.length - rest.length);
    const keySpan = { start: keyStart, end: keyStart + m[1].length };
    const after = rest.slice(m[0].length);
    const value = stripComment(after);
    let valueSpan: Span | undefined;
    if (value.trim()) {
      const lead = after.length - after.trimStart().length;
      const start = keyStart + m[0].length + lead;
      valueSpan = { start, end: start + value.trim().length };
    }
    const entry: TemplateKey = { path, keySpan, valueSpan, section };
    const list = byPath.get(path);
    if (list) list.push(entry);
    else byPath.set(path, [entry]);
    if (!firstKeys[section]) firstKeys[section] = entry;
    stack.push({ indent, key });
  }
  return { byPath, sections: section + 1, firstKeys };
}

/** The value text of a line without a trailing ` # comment` (a `#` inside `{{ }}` or quotes is not one). */
function stripComment(s: string): string {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (s.startsWith('{{', i)) depth++;
    else if (s.startsWith('}}', i) && depth) depth--;
    else if (!depth && quote && c === quote) quote = '';
    else if (!depth && !quote && (c === '"' || c === "'")) quote = c;
    else if (!depth && !quote && c === '#' && (i === 0 || /\s/.test(s[i - 1]))) return s.slice(0, i);
  }
  return s;
}

/** The yaml library prints no warnings of its own (a map key that is a collection): the user would not know them. */
const quiet = { logLevel: 'error' } as const;

/** The objects of rendered multi-document YAML as plain data (`build --format json`), empty documents left out. */
export function renderedObjects(text: string): unknown[] {
  return parseAllDocuments(text, quiet)
    .filter((d) => d.contents !== null)
    .map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
}

/** The documents of rendered YAML, each as its own text starting with `---` (`build --format yaml`). */
export function renderedDocuments(text: string): string[] {
  return parseAllDocuments(text, quiet)
    .filter((d) => d.contents !== null)
    .map((d) => `---\n${d.toString({ lineWidth: 0 }).replace(/^---\n/, '')}`);
}
