// The quick fix "Ignore <code> here…": adds `kube-netlens.io/ignore: "<code>: <reason>"` to the metadata of the object
// a finding is on; for a workload, "Ignore <code> on the pod template…" adds it to the pod template's metadata instead
// (`spec.template.metadata.annotations`, a CronJob's under its jobTemplate), where a chart that lets its users set only
// pod annotations puts it (features/suppressions.ts honours both). The reason is the user's to give: the fix is an edit with a hole where the annotation's value goes,
// and the editor asks for the reason before filling it (client/src/ignoreFinding.ts), quoting the value as a YAML
// double-quoted scalar (a JSON string is one).

import type { Analysis } from '../analysis/analysis';
import { messages } from '../l10n/l10n';
import { isWorkload, type Resource } from '../model/resources';
import { spanContains, type Span } from '../model/span';
import { treeOf } from '../model/trees';
import { at, entry, isMap, type YMap } from '../model/yamlTree';
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
  /** Set on the choice that annotates a workload's pod template. */
  readonly onPodTemplate?: true;
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
    const place = annotationPlace(r, treeOf(r));
    const template = isWorkload(r) ? podTemplateOf(r) : undefined;
    const onTemplate = template && annotationPlace(r, template, true);
    if (!place && !onTemplate) continue;
    seen.add(`${finding.code}\u0000${r.span.start}`);
    if (place) out.push({ title: msg('Ignore {0} here…', finding.code), finding, code: finding.code, uri, ...place });
    if (onTemplate)
      out.push({ title: msg('Ignore {0} on the pod template…', finding.code), finding, code: finding.code, uri, ...onTemplate, onPodTemplate: true });
  }
  return out;
}

/** A workload's pod template (the mapping that holds its pods' metadata), where suppressions.ts reads it. */
function podTemplateOf(r: Resource): YMap | undefined {
  const tree = treeOf(r);
  const template = r.kind === 'CronJob' ? at(tree, 'spec', 'jobTemplate', 'spec', 'template') : at(tree, 'spec', 'template');
  return isMap(template) ? template : undefined;
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

/** Where the annotation goes in the `metadata` of `holder` (the object, or its pod template), made when it is missing. */
function annotationPlace(r: Resource, holder: YMap, podTemplate = false): Pick<IgnoreFix, 'span' | 'before' | 'after' | 'existing'> | undefined {
  const text = r.source.text;
  const metadata = entry(holder, 'metadata')?.value;
  if (metadata === undefined && podTemplate) {
    // a pod template without metadata (it has labels almost always): a metadata mapping with the annotation
    if (text[holder.span.start] === '{') return split(insertMapEntry(r.uri, text, holder, `metadata: {annotations: {${ignoreAnnotation}: ${hole}}}`));
    const column = firstKeyColumn(text, holder);
    if (column === undefined) return undefined;
    const nl = lineEndOf(text);
    return split(
      insertMapEntry(r.uri, text, holder, `metadata:${nl}${' '.repeat(column + 2)}annotations:${nl}${' '.repeat(column + 4)}${ignoreAnnotation}: ${hole}`),
    );
  }
  if (!isMap(metadata)) return undefined;
  const annotations = entry(metadata, 'annotations')?.value;
  if (annotations) {
    if (!isMap(annotations)) return undefined;
    const current = entry(annotations, ignoreAnnotation)?.value;
    if (current)
      return current.type === 'scalar' && current.value !== null ? { span: current.span, before: '', after: '', existing: String(current.value) } : undefined;
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
