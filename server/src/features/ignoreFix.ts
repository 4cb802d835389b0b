// The quick fix "Ignore <code> here…": adds `kube-netlens.io/ignore: "<code>: <reason>"` to the metadata of the object
// a finding is on. The reason is the user's to give: the fix is an edit with a hole where the annotation's value goes,
// and the editor asks for the reason before filling it (client/src/ignoreFinding.ts), quoting the value as a YAML
// double-quoted scalar (a JSON string is one).

import type { Analysis } from '../analysis/analysis';
import { messages } from '../l10n/l10n';
import type { Resource } from '../model/resources';
import { spanContains, type Span } from '../model/span';
import { treeOf } from '../model/trees';
import { entry, isMap, type YMap } from '../model/yamlTree';
import type { Finding } from '../rules/finding';
import { insertMapEntry, lineEndOf, lineStartOf } from '../rules/insertMapEntry';
import { ignoreAnnotation, isIgnoredHint } from './suppressions';

export interface IgnoreFix {
  readonly title: string;
  readonly finding: Finding;
  readonly code: string;
  readonly uri: string;
  /** The text to replace: the annotation's value when there is one already, else an empty span where it goes. */
  readonly span: Span;
  /** The text before and after the annotation's value (the key, a new `annotations:` mapping, indentation). */
  readonly before: string;
  readonly after: string;
  /** The annotation's value today, when the object has one: the new line is added to it. */
  readonly existing?: string;
}

const hole = '\u0000';

/** One fix per code of the findings over `range` that are on an object written in `uri` and are not ignored already. */
export function ignoreFixesAt(findings: readonly Finding[], analysis: Analysis, uri: string, range: Span): IgnoreFix[] {
  const msg = messages(analysis.config.locale);
  const file = analysis.cluster.files.find((f) => f.uri === uri);
  if (!file || file.rendered || uri.includes('#helm/')) return [];
  const out: IgnoreFix[] = [];
  const seen = new Set<string>();
  for (const finding of findings) {
    if (finding.uri !== uri || isIgnoredHint(finding) || finding.code.startsWith('ignore-')) continue;
    if (finding.span.end < range.start || finding.span.start > range.end) continue;
    const r = objectOf(file.resources, finding);
    if (!r || seen.has(`${finding.code}\u0000${r.span.start}`)) continue;
    const place = annotationPlace(r);
    if (!place) continue;
    seen.add(`${finding.code}\u0000${r.span.start}`);
    out.push({ title: msg('Ignore {0} here…', finding.code), finding, code: finding.code, uri, ...place });
  }
  return out;
}

function objectOf(resources: readonly Resource[], f: Finding): Resource | undefined {
  let best: Resource | undefined;
  for (const r of resources) {
    if (!spanContains(r.span, f.span.start)) continue;
    if (!best || r.span.end - r.span.start < best.span.end - best.span.start) best = r;
  }
  if (best && (!f.resource || (best.kind === f.resource.kind && best.name === f.resource.name))) return best;
  // a finding reported on another object's place (a related object): the object it names, when written in this file
  return f.resource && resources.find((r) => r.kind === f.resource!.kind && r.namespace === f.resource!.namespace && r.name === f.resource!.name);
}

function annotationPlace(r: Resource): Pick<IgnoreFix, 'span' | 'before' | 'after' | 'existing'> | undefined {
  const text = r.source.text;
  const metadata = entry(treeOf(r), 'metadata')?.value;
  if (!isMap(metadata)) return undefined;
  const annotations = entry(metadata, 'annotations')?.value;
  if (annotations) {
    if (!isMap(annotations)) return undefined;
    const current = entry(annotations, ignoreAnnotation)?.value;
    if (current) return current.type === 'scalar' && current.value !== null ? { span: current.span, before: '', after: '', existing: String(current.value) } : undefined;
    return split(insertMapEntry(r.uri, text, annotations, `${ignoreAnnotation}: ${hole}`));
  }
  if (text[metadata.span.start] === '{') return split(insertMapEntry(r.uri, text, metadata, `annotations: {${ignoreAnnotation}: ${hole}}`));
  const column = firstKeyColumn(text, metadata);
  if (column === undefined) return undefined;
  return split(insertMapEntry(r.uri, text, metadata, `annotations:${lineEndOf(text)}${' '.repeat(column + 2)}${ignoreAnnotation}: ${hole}`));
}

function firstKeyColumn(text: string, map: YMap): number | undefined {
  const first = [...map.entries.values()].map((e) => e.keySpan.start).sort((a, b) => a - b)[0];
  return first === undefined ? undefined : first - lineStartOf(text, first);
}

function split(edit: { readonly span: Span; readonly newText: string } | undefined): Pick<IgnoreFix, 'span' | 'before' | 'after'> | undefined {
  if (!edit) return undefined;
  const [before, after] = edit.newText.split(hole);
  return { span: edit.span, before, after };
}
