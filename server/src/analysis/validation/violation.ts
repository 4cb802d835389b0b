// One reason the API server would reject an object, and typed readers that report fields of the wrong type as such reasons.

import type { AnalysisConfig } from '../../model/config';
import { hasPlaceholder, isTemplateWord } from '../../model/placeholder';
import type { Span } from '../../model/span';
import { entry, isMap, isSeq, type YMap, type YNode, type YSeq } from '../../model/yamlTree';
import type { Fix } from '../../model/edit';
import { phrase, say, type Msg, type Phrase } from '../../l10n/l10n';

export interface Violation {
  /** The field path as the API server prints it: `spec.ports[1].name`. */
  readonly path: string;
  readonly span: Span;
  /** The API server's wording: `Required value`, `Invalid value: "HTTP": …`. */
  readonly reason: string;
  /** What it means in practice, for someone who has not read the validation code: worded in the reader's language. */
  readonly why?: Phrase;
  readonly fixes?: readonly Fix[];
}

/** Where a validator reads from and writes to: the file's text (for source-accurate values and fixes) and the violations found. */
export interface ValidationContext {
  readonly uri: string;
  readonly source: string;
  readonly config: AnalysisConfig;
  readonly out: Violation[];
}

/** The path and the reason as the API server prints them (English in every locale), then what it means, in the words of `msg`. */
export function messageOf(v: Violation, msg: Msg): string {
  return `${v.path}: ${v.reason}${v.why ? ` — ${say(v.why, msg)}` : ''}`;
}

export function report(ctx: ValidationContext, path: string, span: Span, reason: string, why?: Phrase, fixes?: readonly Fix[]): void {
  // A value a tool fills in later (envsubst, a template) is unknown: whatever it becomes is not judged here.
  if (span.end - span.start < 4096) {
    const text = ctx.source.slice(span.start, span.end);
    if (hasPlaceholder(text) || (text.length <= 64 && isTemplateWord(text, ctx.source))) return;
  }
  ctx.out.push({ path, span, reason, why, fixes });
}

/** `Invalid value: "x": reason; reason`, quoting strings as the API server does. */
export function invalid(ctx: ValidationContext, path: string, span: Span, value: string | number, reasons: readonly string[], why?: Phrase): void {
  if (!reasons.length) return;
  report(ctx, path, span, `Invalid value: ${shown(value)}: ${reasons.join('; ')}`, why);
}

export function shown(value: string | number): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The value as written in the file (so `1.10` stays `1.10`, not `1.1`). */
export function written(ctx: ValidationContext, n: YNode): string {
  const s = ctx.source.slice(n.span.start, n.span.end);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

function typeName(n: YNode): Phrase {
  if (n.type === 'map') return phrase('a mapping');
  if (n.type === 'seq') return phrase('a list');
  const v = n.value;
  if (typeof v === 'number') return phrase('a number');
  if (typeof v === 'boolean') return phrase('a boolean');
  return phrase('a string');
}

function wrongType(ctx: ValidationContext, path: string, n: YNode, expected: Phrase, hint?: Phrase): void {
  const shownValue = n.type === 'scalar' && typeof n.value === 'string' && !n.quoted ? JSON.stringify(n.value) : written(ctx, n);
  const what = n.type === 'scalar' ? phrase('{0} is {1}', shownValue, typeName(n)) : phrase('it is {0}', typeName(n));
  report(
    ctx,
    path,
    n.span,
    `Invalid type`,
    hint
      ? phrase('must be {0}, but {1}; the API server cannot decode the object. {2}', expected, what, hint)
      : phrase('must be {0}, but {1}; the API server cannot decode the object', expected, what),
  );
}

function isNull(n: YNode | undefined): boolean {
  return n === undefined || (n.type === 'scalar' && n.value === null);
}

/** A string field; numbers and booleans are reported (Kubernetes does not convert them). */
export function readString(ctx: ValidationContext, n: YNode | undefined, path: string): string | undefined {
  if (isNull(n)) return undefined;
  if (n!.type === 'scalar' && typeof n!.value === 'string') return n!.value;
  wrongType(ctx, path, n!, phrase('a string'), n!.type === 'scalar' ? phrase('Quote it: "{0}"', written(ctx, n!)) : undefined);
  return undefined;
}

/** An integer field; quoted numbers and words are reported. */
export function readInt(ctx: ValidationContext, n: YNode | undefined, path: string): number | undefined {
  if (isNull(n)) return undefined;
  if (n!.type === 'scalar' && typeof n!.value === 'number' && Number.isInteger(n!.value)) return n!.value;
  const numeric = n!.type === 'scalar' && typeof n!.value === 'string' && /^\d+$/.test(n!.value);
  wrongType(ctx, path, n!, phrase('an integer'), numeric ? phrase('Remove the quotes') : undefined);
  return undefined;
}

export function readBool(ctx: ValidationContext, n: YNode | undefined, path: string): boolean | undefined {
  if (isNull(n)) return undefined;
  if (n!.type === 'scalar' && typeof n!.value === 'boolean') return n!.value;
  wrongType(ctx, path, n!, phrase('true or false'));
  return undefined;
}

export function readMap(ctx: ValidationContext, n: YNode | undefined, path: string): YMap | undefined {
  if (isNull(n)) return undefined;
  if (isMap(n)) return n;
  wrongType(ctx, path, n!, phrase('a mapping (key: value pairs)'));
  return undefined;
}

export function readSeq(ctx: ValidationContext, n: YNode | undefined, path: string): YSeq | undefined {
  if (isNull(n)) return undefined;
  if (isSeq(n)) return n;
  wrongType(ctx, path, n!, phrase('a list (items starting with "-")'));
  return undefined;
}

/** A mapping of strings to strings (labels, selectors, annotations): every value must be a string. */
export function readStringMap(ctx: ValidationContext, n: YNode | undefined, path: string): Map<string, { value: string; node: YNode; keySpan: Span }> {
  const out = new Map<string, { value: string; node: YNode; keySpan: Span }>();
  const m = readMap(ctx, n, path);
  if (!m) return out;
  for (const [k, e] of m.entries) {
    // The common case first: the field path is only needed to report a value of the wrong type.
    if (e.value.type === 'scalar' && typeof e.value.value === 'string') {
      out.set(k, { value: e.value.value, node: e.value, keySpan: e.keySpan });
      continue;
    }
    const v = readString(ctx, e.value, `${path}[${k}]`);
    if (v !== undefined) out.set(k, { value: v, node: e.value, keySpan: e.keySpan });
    else if (isNull(e.value)) out.set(k, { value: '', node: e.value, keySpan: e.keySpan });
  }
  return out;
}

/** The span of a key, for findings about a field that is present but wrong as a whole, or missing below it. */
export function keySpanOf(n: YNode | undefined, key: string): Span | undefined {
  return entry(n, key)?.keySpan;
}
