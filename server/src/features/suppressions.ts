// Suppressions: a person decided a finding is intended, and said why. The annotation
//
//     kube-netlens.io/ignore: "service-selector-no-match: pods come from the operator"
//
// on an object's metadata (or, for a workload, on its pod template's) names one or more codes, comma-separated, and a
// required reason after the colon; several such lines may be given in one value (a YAML block scalar). It applies to
// the findings of those codes on that object (kind, namespace and name, as the finding's identity names it).
// Suppressed findings are not gone: the editor shows them faded, as hints that say the reason, and the CLI counts them.
// A suppression that is malformed (no reason, a code no rule has) or that no finding matches any more is reported
// (`ignore-invalid`, `ignore-unused`), so suppressions do not rot. Pure: a function of (findings, analysis).

import type { Analysis } from '../analysis/analysis';
import type { ResourceRef } from '../rules/finding';
import type { ManifestFile } from '../model/parseManifest';
import type { Resource } from '../model/resources';
import { isWorkload } from '../model/resources';
import { innermostAt, type Span } from '../model/span';
import { treeOf } from '../model/trees';
import { at, entry } from '../model/yamlTree';
import { configuredSeverity, type Severity } from '../model/config';
import type { ConfigSuppression } from '../model/configFile';
import { codeCatalog } from './ruleCatalog';
import { messages, phrase, say, type Msg, type Phrase } from '../l10n/l10n';

export const ignoreAnnotation = 'kube-netlens.io/ignore';

/** Every code a suppression may name: the rules' and the other codes (docs/rules.md). */
const catalogCodes: ReadonlySet<string> = new Set(codeCatalog.map((c) => c.code));

/** The shape of a finding as suppressions read and rewrite it (the engine's findings, the CLI's, the server's). */
export interface SuppressibleFinding {
  readonly uri: string;
  readonly span: Span;
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly resource?: ResourceRef;
  readonly tags?: readonly ('unnecessary' | 'deprecated')[];
}

/** One parsed line of the annotation: the codes it names and the reason given. */
export interface Suppression {
  readonly codes: readonly string[];
  readonly reason: string;
  /** Where it is written: the object's metadata or its pod template's. */
  readonly on: 'metadata' | 'pod template';
  readonly resource: Resource;
  /** The annotation's value in the object's file (for notes on it), when the object is read from a file as written. */
  readonly place?: { readonly uri: string; readonly span: Span };
}

/** An `ignore:` entry of the config file, its globs compiled by the caller (model/configFile.ts). */
export type { ConfigSuppression };

export interface SuppressionOptions {
  readonly knownCodes?: ReadonlySet<string>;
  readonly entries?: readonly ConfigSuppression[];
}

export interface Ignored<F> {
  readonly finding: F;
  readonly reason: string;
  /** `annotation on Service shop/web`, in the analysis's locale. */
  readonly by: string;
}

export interface SuppressionOutcome<F> {
  /** The findings no suppression names, in their order. */
  readonly kept: readonly F[];
  readonly ignored: readonly Ignored<F>[];
  /** `ignore-invalid` and `ignore-unused` notes on the annotations. */
  readonly notes: readonly SuppressibleFinding[];
}

/**
 * A note on a suppression, its words kept as a `Phrase`: the notes on a file's annotations are worked out once per
 * parsed file for every locale, and worded in the analysis's (`configured`).
 */
type Note = Omit<SuppressibleFinding, 'message'> & { readonly phrase: Phrase };

/** The annotation lines on `r` (metadata, then pod template), and what is wrong with those that cannot be used. */
export function suppressionsOf(r: Resource, knownCodes: ReadonlySet<string>, rendered: boolean): { suppressions: Suppression[]; problems: Note[] } {
  const suppressions: Suppression[] = [];
  const problems: Note[] = [];
  const tree = r.annotations.has(ignoreAnnotation) || isWorkload(r) ? treeOf(r) : undefined;
  const sources: { on: Suppression['on']; text: string | undefined; span?: Span }[] = [];
  if (r.annotations.has(ignoreAnnotation))
    sources.push({ on: 'metadata', text: r.annotations.get(ignoreAnnotation), span: entry(at(tree, 'metadata', 'annotations'), ignoreAnnotation)?.value.span });
  if (tree && isWorkload(r) && r.kind !== 'Pod') {
    const template =
      r.kind === 'CronJob'
        ? at(at(tree, 'spec', 'jobTemplate', 'spec'), 'template', 'metadata', 'annotations')
        : at(tree, 'spec', 'template', 'metadata', 'annotations');
    const value = entry(template, ignoreAnnotation)?.value;
    if (value) sources.push({ on: 'pod template', text: value.type === 'scalar' && value.value !== null ? String(value.value) : undefined, span: value.span });
  }
  for (const s of sources) {
    const place = !rendered && s.span ? { uri: r.uri, span: s.span } : undefined;
    const problem = (p: Phrase) => {
      if (place) problems.push({ ...place, code: 'ignore-invalid', severity: 'warning', phrase: p, resource: ref(r) });
    };
    if (s.text === undefined) {
      problem(phrase('{0} must be a string: "<code>[,<code>]: <reason>"; nothing is ignored.', ignoreAnnotation));
      continue;
    }
    for (const line of s.text.split('\n')) {
      if (!line.trim()) continue;
      const m = /^\s*([^:]*?)\s*:\s*(.*?)\s*$/.exec(line);
      if (!m || !m[1]) {
        problem(
          phrase(
            '{0} needs the codes and a reason: "<code>[,<code>]: <reason>" (got {1}); nothing is ignored by it.',
            ignoreAnnotation,
            JSON.stringify(line.trim()),
          ),
        );
        continue;
      }
      if (!m[2]) {
        problem(phrase('{0} gives no reason after "{1}:": say why the finding is intended; nothing is ignored by it.', ignoreAnnotation, m[1]));
        continue;
      }
      const codes = m[1]
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const unknown = codes.filter((c) => !knownCodes.has(c));
      if (unknown.length)
        problem(
          unknown.length === 1
            ? phrase('{0} names {1}, which is no code of kube-netlens (docs/rules.md lists them).', ignoreAnnotation, JSON.stringify(unknown[0]))
            : phrase('{0} names {1}, which are no codes of kube-netlens (docs/rules.md lists them).', ignoreAnnotation, quotedList(unknown)),
        );
      const known = codes.filter((c) => knownCodes.has(c));
      if (known.length) suppressions.push({ codes: known, reason: m[2], on: s.on, resource: r, ...(place && { place }) });
    }
  }
  return { suppressions, problems };
}

/**
 * Findings split into kept and ignored by the annotations of the objects they are on, with notes on annotations that
 * are malformed or match nothing. Without any annotation in the analysis the findings come back as they are.
 */
export function applySuppressions<F extends SuppressibleFinding>(
  findings: readonly F[],
  analysis: Analysis,
  options: SuppressionOptions = {},
): SuppressionOutcome<F> {
  const knownCodes = options.knownCodes ?? catalogCodes;
  const entries = options.entries ?? [];
  const msg = messages(analysis.config.locale);
  const byObject = new Map<string, Suppression[]>();
  const problems: Note[] = [];
  const annotatedFiles = new Set<string>();
  for (const file of analysis.cluster.files) {
    for (const a of annotationsOf(file, knownCodes)) {
      problems.push(...a.problems);
      if (!a.suppressions.length) continue;
      annotatedFiles.add(file.uri);
      byObject.set(a.key, [...(byObject.get(a.key) ?? []), ...a.suppressions]);
    }
  }
  for (const e of entries) {
    if (!knownCodes.has(e.code) && e.place)
      problems.push({
        ...e.place,
        code: 'ignore-invalid',
        severity: 'warning',
        phrase: phrase('This ignore entry names {0}, which is no code of kube-netlens (docs/rules.md lists them); it ignores nothing.', JSON.stringify(e.code)),
      });
  }
  if (!byObject.size && !entries.length) return { kept: findings, ignored: [], notes: configured(problems, analysis, msg) };
  const used = new Map<Suppression, Set<string>>();
  const kept: F[] = [];
  const ignored: Ignored<F>[] = [];
  const usedEntries = new Set<ConfigSuppression>();
  const filesByUri = new Map(analysis.cluster.files.map((f) => [f.uri, f]));
  for (const f of findings) {
    let object: ResourceRef | undefined = f.resource;
    if (!object && (annotatedFiles.has(f.uri) || entries.length)) object = innermostAt(filesByUri.get(f.uri)?.resources ?? [], f.span.start);
    const s = object && byObject.get(keyOf(object))?.find((x) => x.codes.includes(f.code));
    if (!s) {
      const e = entries.find((x) => entryMatches(x, f, object));
      if (e) {
        usedEntries.add(e);
        ignored.push({ finding: f, reason: e.reason, by: say(e.label, msg) });
      } else kept.push(f);
      continue;
    }
    let codes = used.get(s);
    if (!codes) used.set(s, (codes = new Set()));
    codes.add(f.code);
    ignored.push({
      finding: f,
      reason: s.reason,
      by:
        s.on === 'pod template'
          ? msg('annotation on the pod template of {0} {1}/{2}', s.resource.kind, s.resource.namespace, s.resource.name)
          : msg('annotation on {0} {1}/{2}', s.resource.kind, s.resource.namespace, s.resource.name),
    });
  }
  for (const list of byObject.values()) {
    for (const s of list) {
      const unused = s.codes.filter((c) => !used.get(s)?.has(c));
      if (!unused.length || !s.place) continue;
      problems.push({
        ...s.place,
        code: 'ignore-unused',
        severity: 'information',
        resource: ref(s.resource),
        phrase:
          unused.length === s.codes.length
            ? phrase(
                '{0} ignores {1} on this {2}, but no such finding is here any more (fixed, or the rule is off): remove it. The reason given was: {3}',
                ignoreAnnotation,
                unused.join(', '),
                s.resource.kind,
                s.reason,
              )
            : unused.length === 1
              ? phrase(
                  '{0} ignores {1} on this {2}, but no such finding is here any more (fixed, or the rule is off): remove that code. The reason given was: {3}',
                  ignoreAnnotation,
                  unused[0],
                  s.resource.kind,
                  s.reason,
                )
              : phrase(
                  '{0} ignores {1} on this {2}, but no such finding is here any more (fixed, or the rule is off): remove those codes. The reason given was: {3}',
                  ignoreAnnotation,
                  unused.join(', '),
                  s.resource.kind,
                  s.reason,
                ),
      });
    }
  }
  for (const e of entries) {
    if (usedEntries.has(e) || !e.place || !knownCodes.has(e.code)) continue;
    problems.push({
      ...e.place,
      code: 'ignore-unused',
      severity: 'information',
      phrase: phrase('This ignore entry matches no {0} finding any more (fixed, or the rule is off): remove it. The reason given was: {1}', e.code, e.reason),
    });
  }
  return { kept, ignored, notes: configured(problems, analysis, msg) };
}

/** A file's annotated objects: the suppressions and problems of each, in file order. */
interface FileAnnotations {
  readonly knownCodes: ReadonlySet<string>;
  readonly found: readonly { readonly key: string; readonly suppressions: readonly Suppression[]; readonly problems: readonly Note[] }[];
}

/** Worked out once per parsed file (and set of known codes): an edit reads the annotations of the files it changed. */
const fileAnnotations = new WeakMap<ManifestFile, FileAnnotations>();

function annotationsOf(file: ManifestFile, knownCodes: ReadonlySet<string>): FileAnnotations['found'] {
  const kept = fileAnnotations.get(file);
  if (kept?.knownCodes === knownCodes) return kept.found;
  const rendered = file.rendered !== undefined || file.uri.includes('#helm/');
  const mentions = new Map<string, boolean>();
  const templateAnnotated = (r: Resource): boolean => {
    // the pod template's annotations are not kept on the resource: a look at the file's text first (once per text)
    if (r.kind === 'Pod') return false;
    let m = mentions.get(r.source.text);
    if (m === undefined) mentions.set(r.source.text, (m = r.source.text.includes(ignoreAnnotation)));
    return m;
  };
  const found: { key: string; suppressions: Suppression[]; problems: Note[] }[] = [];
  for (const r of file.resources) {
    if (!r.annotations.has(ignoreAnnotation) && !(isWorkload(r) && templateAnnotated(r))) continue;
    const f = suppressionsOf(r, knownCodes, rendered);
    found.push({ key: keyOf(r), ...f });
  }
  fileAnnotations.set(file, { knownCodes, found });
  return found;
}

function entryMatches(e: ConfigSuppression, f: SuppressibleFinding, object: ResourceRef | undefined): boolean {
  if (e.code !== f.code) return false;
  if ((e.kind !== undefined || e.namespace !== undefined || e.name !== undefined) && !object) return false;
  if (e.kind !== undefined && e.kind !== object!.kind) return false;
  if (e.namespace !== undefined && e.namespace !== object!.namespace) return false;
  if (e.name && !e.name(object!.name)) return false;
  return !e.path || e.path(f.uri);
}

/** The notes at their configured severities (`kubeNetlens.rules` may turn `ignore-unused` off), worded by `msg`. */
function configured(notes: readonly Note[], analysis: Analysis, msg: Msg): SuppressibleFinding[] {
  return notes.flatMap((n) => {
    const severity = configuredSeverity(analysis.config.rules, n.code, n.severity);
    return severity ? [wordedNote(n, severity, msg)] : [];
  });
}

/** A note's finding, the same object while the note, its severity and the locale are (as a finding is while unchanged). */
const wordedNotes = new WeakMap<Note, SuppressibleFinding>();

function wordedNote(n: Note, severity: Severity, msg: Msg): SuppressibleFinding {
  const message = say(n.phrase, msg);
  const kept = wordedNotes.get(n);
  if (kept && kept.severity === severity && kept.message === message) return kept;
  const { phrase: _, ...rest } = n;
  const f: SuppressibleFinding = { ...rest, severity, message };
  wordedNotes.set(n, f);
  return f;
}

/** `"a", "b"`: codes as a note quotes them. */
function quotedList(codes: readonly string[]): string {
  return codes.map((c) => JSON.stringify(c)).join(', ');
}

/** Hints made from ignored findings, kept while the finding is (so unchanged findings stay the same objects). */
const hintOf = new WeakMap<object, { readonly text: string; readonly hint: SuppressibleFinding }>();
const hints = new WeakSet<object>();

/** An ignored finding as the editor shows it: a faded hint that says it is ignored and why. */
export function asIgnoredHint<F extends SuppressibleFinding>(i: Ignored<F>, msg: Msg): F {
  const message = msg('Ignored ({0}: {1}): {2}', i.by, i.reason, i.finding.message);
  const kept = hintOf.get(i.finding);
  if (kept?.text === message) return kept.hint as F;
  const hint: F = { ...i.finding, severity: 'hint', tags: ['unnecessary'], message };
  hintOf.set(i.finding, { text: message, hint });
  hints.add(hint);
  return hint;
}

export function isIgnoredHint(f: object): boolean {
  return hints.has(f);
}

/**
 * The findings as the editor shows them: ignored ones in their place as faded hints with the reason, then the notes on
 * suppressions. Without any suppression in the analysis (the usual case), the findings as they are.
 */
export function editorFindings<F extends SuppressibleFinding>(
  findings: readonly F[],
  analysis: Analysis,
  entries: readonly ConfigSuppression[] = [],
): readonly F[] {
  const o = applySuppressions(findings, analysis, { entries });
  if (!o.ignored.length && !o.notes.length) return findings;
  const msg = messages(analysis.config.locale);
  const ignored = new Map(o.ignored.map((i) => [i.finding as object, i]));
  return [
    ...findings.map((f) => {
      const i = ignored.get(f);
      return i ? asIgnoredHint(i, msg) : f;
    }),
    ...(o.notes as F[]),
  ];
}

function keyOf(r: ResourceRef): string {
  return `${r.kind}\u0000${r.namespace}\u0000${r.name}`;
}

function ref(r: Resource): ResourceRef {
  return { kind: r.kind, namespace: r.namespace, name: r.name };
}
