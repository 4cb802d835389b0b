// Findings on rendered text (a Helm release) → findings on the sources that made it (the template lines), with the
// rendered value and the value set in the message; the same finding from several value sets → one finding naming
// them all. The mapping and merging are engine/renderedMerge.ts's (which drops fixes: they would edit rendered text,
// which nobody can save); what is Helm's is here: how a value set is named, with the value it rendered. The source map
// of a snapshot (sourceMap.ts) calls it for the Helm renders among its files.

import { messages, say, type Msg } from '../l10n/l10n';
import { configuredSeverity, type AnalysisConfig } from '../model/config';
import type { RenderedText, RenderProblem } from '../model/rendered';
import type { Span } from '../model/span';
import type { Finding } from '../rules/finding';
import { mappedRelated, mergeAtSources, sourcePlace, type Landing, type Merging } from '../engine/renderedMerge';

/**
 * `release shop, values ci/prod-values.yaml`: a Helm value set as messages name it (with its release), in English: the
 * key value sets merge by; `contextWords` words it for a reader.
 */
export function valueSetContext(valueSet: { readonly label: string; readonly release: string }): string {
  return valueSet.label.startsWith('release ') ? valueSet.label : `release ${valueSet.release}, ${valueSet.label}`;
}

/** A context of `valueSetContext` (or of `joinContexts`) in the words of `msg`. */
export function contextWords(context: string, msg: Msg): string {
  const m = /^release ([^,]+)(?:, (.+))?$/.exec(context);
  if (!m) return context;
  if (m[2] === undefined) return msg('release {0}', m[1]);
  const sets = /^value sets (.+) and (.+)$/.exec(m[2]);
  if (sets) return msg('release {0}, value sets {1} and {2}', m[1], valuesWords(sets[1], msg), valuesWords(sets[2], msg));
  return msg('release {0}, {1}', m[1], valuesWords(m[2], msg));
}

/** `values ci/prod-values.yaml` (the files of a value set), `values.yaml`, or a list of them, in the words of `msg`. */
function valuesWords(label: string, msg: Msg): string {
  return label
    .split(', ')
    .map((l) => (l.startsWith('values ') ? msg('values {0}', l.slice('values '.length)) : l))
    .join(msg(', '));
}

/** One rendered unit's findings: those on `renderedUri` are mapped, the others are left out. */
export interface RenderedFindings {
  readonly renderedUri: string;
  readonly rendered: RenderedText;
  /** For messages: `release shop, values ci/prod-values.yaml`. */
  readonly context: string;
  /** Where findings go whose span no mapping covers (the chart's Chart.yaml). */
  readonly fallbackUri: string;
  readonly findings: readonly Finding[];
}

type Render = Omit<RenderedFindings, 'findings'>;

/**
 * One analysis's findings with renders among its files: those on a render go to its sources (merged across value
 * sets), the others stay where they are with their related places in renders mapped too.
 */
export function mapHelmFindings(findings: readonly Finding[], units: readonly Render[], msg: Msg = messages(undefined)): Finding[] {
  const byUri = rendersByUri(units);
  const placeOf = placesIn(byUri);
  const onRenders: Finding[] = [];
  const out: Finding[] = [];
  for (const f of findings) {
    if (byUri.has(f.uri)) onRenders.push(f);
    else if (f.related?.some((r) => byUri.has(r.uri))) out.push({ ...f, related: mappedRelated(f.related, placeOf) });
    else out.push(f);
  }
  return [
    ...out,
    ...mapRenderedFindings(
      units.map((u) => ({ ...u, findings: onRenders })),
      msg,
    ),
  ];
}

/** Every unit's findings on its rendered text, mapped to their sources and merged across value sets; the value sets named in the words of `msg`. */
export function mapRenderedFindings(units: readonly RenderedFindings[], msg: Msg = messages(undefined)): Finding[] {
  const landings: Landing<Render>[] = [];
  for (const u of units) {
    for (const f of u.findings) if (f.uri === u.renderedUri) landings.push({ finding: f, render: u, at: sourcePlace(u.rendered, u.fallbackUri, f.span) });
  }
  return mergeAtSources(landings, helmMerging(placesIn(rendersByUri(units)), msg));
}

/**
 * Findings of value sets merge only when their messages agree (nothing else shows a value set's own message); the
 * message names each value set with the value it rendered, on one line when the values agree.
 */
function helmMerging(placeOf: Merging<Render>['placeOf'], msg: Msg): Merging<Render> {
  return {
    name: (u) => u.context,
    byMessage: true,
    placeOf,
    message(landings) {
      const values = landings.map((l) => renderedSnippet(l.render.rendered.text, l.finding.span));
      const sameValue = values.every((v) => v === values[0]);
      const inContext = (context: string, value: string) =>
        value ? msg('in {0}: rendered {1}', contextWords(context, msg), value) : msg('in {0}', contextWords(context, msg));
      const where = sameValue
        ? inContext(joinContexts(landings.map((l) => l.render.context)), values[0])
        : landings.map((l, i) => inContext(l.render.context, values[i])).join('\n');
      return `${landings[0].finding.message}\n${where}`;
    },
  };
}

/** The renders by the URI of their rendered text (the first of a URI, should two share one). */
function rendersByUri(units: readonly Render[]): Map<string, Render> {
  const byUri = new Map<string, Render>();
  for (const u of units) if (!byUri.has(u.renderedUri)) byUri.set(u.renderedUri, u);
  return byUri;
}

function placesIn(byUri: ReadonlyMap<string, Render>): Merging<Render>['placeOf'] {
  return (uri, span) => {
    const u = byUri.get(uri);
    return u && sourcePlace(u.rendered, u.fallbackUri, span);
  };
}

/**
 * `release api, values.yaml` + `release api, values ci/prod-values.yaml` → `release api, value sets values.yaml and
 * ci/prod-values.yaml`, in English (`contextWords` words it); `msg` given, in its words.
 */
export function joinContexts(contexts: readonly string[], msg?: Msg): string {
  if (msg)
    return contexts.length === 1
      ? contextWords(contexts[0], msg)
      : englishJoin(contexts)
          .map((c) => contextWords(c, msg))
          .join(msg('; '));
  return englishJoin(contexts).join('; ');
}

/** The contexts as one, when they are of one release; else each as it is. */
function englishJoin(contexts: readonly string[]): string[] {
  if (contexts.length === 1) return [contexts[0]];
  const parts = contexts.map((c) => /^release ([^,]+), (?:values )?(.+)$/.exec(c));
  const release = parts[0]?.[1];
  if (release === undefined || !parts.every((p) => p && p[1] === release)) return [...contexts];
  const sets = parts.map((p) => p![2]);
  return [`release ${release}, value sets ${sets.slice(0, -1).join(', ')} and ${sets[sets.length - 1]}`];
}

/** The rendered text a finding points at, on one line and short. */
function renderedSnippet(text: string, span: Span): string {
  let s = text.slice(span.start, Math.min(span.end, span.start + 200));
  const nl = s.indexOf('\n');
  if (nl >= 0) s = `${s.slice(0, nl)} …`;
  s = s.trim();
  if (s.length > 80) s = `${s.slice(0, 79)}…`;
  return s ? `\`${s}\`` : '';
}

/**
 * Render problems as findings (the CLI and the editor show them like rule findings), at their configured severities
 * (model/config.ts `configuredSeverity`); `off` drops them. Worded by `msg` (the analysis's locale).
 */
export function findingsOfProblems(problems: readonly RenderProblem[], rules: AnalysisConfig['rules'], msg: Msg): Finding[] {
  const out: Finding[] = [];
  for (const p of problems) {
    const severity = configuredSeverity(rules, p.code, p.severity);
    if (severity) out.push({ uri: p.uri, span: p.span, code: p.code, severity, message: p.phrase ? say(p.phrase, msg) : p.message });
  }
  return out;
}
