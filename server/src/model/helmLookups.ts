// What a chart's templates take from the cluster, which `helm template` cannot see (semantics §9.2): `lookup` returns
// an empty map there, and `.Capabilities` holds defaults (no custom resource APIs, and none of the `group/version/Kind`
// spellings even of built-in ones). So an object a template looks up may exist although no render has it, and the
// objects a template writes inside an `if`/`with`/`range` whose condition asks `lookup` or `.Capabilities` may be
// installed by a real `helm install` although the render left them out. Found by reading the template text: its
// actions (`{{ … }}`), the blocks they open and close, and the `kind:` lines inside those blocks. Pure; linear in
// the text.

import type { Span } from './span';

/** One thing a render may lack because helm rendered it without a cluster. */
export interface ClusterDependence {
  /**
   * `lookup`: the template looks up an object of `kind` (and `name`) in the cluster, so one may exist there.
   * `guard`: the template writes an object of `kind` only when a `lookup` or `.Capabilities` condition holds.
   */
  readonly how: 'lookup' | 'guard';
  /** The object's kind, or `*` when the template computes it (or includes another template that may write objects). */
  readonly kind: string;
  /** The apiVersion written beside a guarded object's kind, when literal. */
  readonly apiVersion?: string;
  /** The name a `lookup` asks for, when literal (`""` lists every object of the kind). */
  readonly name?: string;
  /**
   * The namespace it is about: a literal one, `.Release.Namespace` (as `{release}` from clusterDependences, the
   * release's namespace from chartClusterDependences), or undefined when the template computes it.
   */
  readonly namespace?: string;
  /** The template file. */
  readonly uri: string;
  /** The `lookup` call, or the condition of the block that guards the object. */
  readonly span: Span;
  /** That text, shortened, for messages. */
  readonly text: string;
}

/** Actions longer than this are not read (no hand-written condition is). */
const maxAction = 4096;

/** Every dependence on the cluster in one template file. */
export function clusterDependences(uri: string, text: string): ClusterDependence[] {
  // most templates ask neither: one scan of the text decides
  if (!text.includes('lookup') && !text.includes('.Capabilities')) return [];
  const out: ClusterDependence[] = [];
  /** Open blocks: the condition that makes them cluster-dependent, if any; `define` bodies are written elsewhere. */
  const stack: { guard?: { span: Span; text: string }; define: boolean }[] = [];
  /** Variables assigned from `lookup` or `.Capabilities` (`$svc := lookup …`). */
  const tainted = new Set<string>();
  const re = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;
  let last = 0;
  const scanText = (from: number, to: number) => {
    const guard = innermostGuard(stack);
    if (!guard || stack.some((b) => b.define)) return;
    scanObjects(text, from, to, (kind, apiVersion, namespace) =>
      out.push({ how: 'guard', kind, apiVersion, namespace, uri, span: guard.span, text: guard.text }),
    );
  };
  for (let m = re.exec(text); m; m = re.exec(text)) {
    scanText(last, m.index);
    last = m.index + m[0].length;
    const body = m[1];
    if (body.startsWith('/*') || body.length > maxAction) continue;
    const bodyStart = m.index + m[0].indexOf(body);
    const span = { start: bodyStart, end: bodyStart + body.length };
    for (const call of lookupCalls(body)) {
      out.push({
        how: 'lookup',
        kind: call.kind,
        name: call.name,
        namespace: call.namespace,
        uri,
        span: { start: bodyStart + call.start, end: bodyStart + call.end },
        text: shorten(body.slice(call.start, call.end)),
      });
    }
    const assigned = /^(\$[A-Za-z0-9_]+)\s*:?=\s*([\s\S]*)$/.exec(body);
    if (assigned && asksCluster(assigned[2], tainted)) tainted.add(assigned[1]);
    const keyword = /^(if|with|range|else\s+if|else\s+with|else|end|define|block)\b\s*([\s\S]*)$/.exec(body);
    if (keyword) {
      const word = keyword[1].replace(/\s+/, ' ');
      const condition = keyword[2];
      const dependent = asksCluster(condition, tainted) ? { span, text: shorten(body) } : undefined;
      if (word === 'end') stack.pop();
      else if (word === 'define' || word === 'block') stack.push({ define: word === 'define' });
      else if (word === 'if' || word === 'with' || word === 'range') stack.push({ guard: dependent, define: false });
      else if (stack.length) {
        // `else` keeps the block's condition (the branch taken when the cluster answers otherwise); `else if` adds its own
        const open = stack[stack.length - 1];
        stack[stack.length - 1] = { guard: open.guard ?? dependent, define: open.define };
      }
      continue;
    }
    // a template included at the start of a line inside a guard may write objects of any kind
    const guard = innermostGuard(stack);
    if (guard && !stack.some((b) => b.define) && /^(include|template)\s/.test(body) && !/\bn?indent\b/.test(body) && atLineStart(text, m.index)) {
      out.push({ how: 'guard', kind: '*', uri, span: guard.span, text: guard.text });
    }
  }
  scanText(last, text.length);
  return out;
}

function innermostGuard(stack: readonly { guard?: { span: Span; text: string } }[]): { span: Span; text: string } | undefined {
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i].guard) return stack[i].guard;
  return undefined;
}

/** Whether an expression asks the cluster: a `lookup` call, `.Capabilities`, or a variable assigned from one. */
function asksCluster(expression: string, tainted: ReadonlySet<string>): boolean {
  if (/(^|[\s(|])lookup\s/.test(expression) || expression.includes('.Capabilities')) return true;
  for (const v of expression.matchAll(/\$[A-Za-z0-9_]+/g)) if (tainted.has(v[0])) return true;
  return false;
}

/** The `lookup apiVersion kind namespace name` calls of an action, with their literal kind and name. */
function lookupCalls(body: string): { kind: string; name?: string; namespace?: string; start: number; end: number }[] {
  const out: { kind: string; name?: string; namespace?: string; start: number; end: number }[] = [];
  const re = /(^|[\s(|])lookup\s+/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const start = m.index + m[1].length;
    let at = m.index + m[0].length;
    const args: string[] = [];
    while (args.length < 4 && at < body.length) {
      const arg = argumentAt(body, at);
      if (!arg) break;
      args.push(arg);
      at += arg.length;
      while (at < body.length && /\s/.test(body[at])) at++;
    }
    const literal = (s: string | undefined) => (s && /^"[^"\\]*"$/.test(s) ? s.slice(1, -1) : undefined);
    const kind = literal(args[1]);
    out.push({ kind: kind || '*', name: literal(args[3]), namespace: namespaceOf(args[2]), start, end: Math.min(at, body.length) });
    re.lastIndex = Math.max(re.lastIndex, at);
  }
  return out;
}

/** One template argument at `at`: a quoted string, a parenthesized group, or a run of other characters. */
function argumentAt(s: string, at: number): string | undefined {
  const c = s[at];
  if (c === undefined || c === ')' || c === '|') return undefined;
  if (c === '"' || c === '`') {
    let i = at + 1;
    while (i < s.length && s[i] !== c) i += s[i] === '\\' && c === '"' ? 2 : 1;
    return s.slice(at, Math.min(i + 1, s.length));
  }
  if (c === '(') {
    let depth = 0;
    for (let i = at; i < s.length; i++) {
      if (s[i] === '(') depth++;
      else if (s[i] === ')' && --depth === 0) return s.slice(at, i + 1);
    }
    return s.slice(at);
  }
  const m = /^[^\s()|]+/.exec(s.slice(at, at + 512));
  return m?.[0];
}

/** The objects written in the literal text between two actions: each top-level `kind:` line, with its `apiVersion:`. */
function scanObjects(
  text: string,
  from: number,
  to: number,
  found: (kind: string, apiVersion: string | undefined, namespace: string | undefined) => void,
): void {
  const part = text.slice(from, to);
  const kinds = /^kind:[ \t]*(.*)$/gm;
  for (let m = kinds.exec(part); m; m = kinds.exec(part)) {
    const value = m[1]
      .replace(/\s+#.*$/, '')
      .trim()
      .replace(/^["']|["']$/g, '');
    // `kind: {{ … }}`: the action follows on this line, outside this piece of text
    const kind = !value || value.includes('{') ? '*' : value;
    const doc = documentAround(text, from + m.index);
    found(kind, lastMatch(apiVersionLine, doc.before) ?? firstMatch(apiVersionLine, doc.after), objectNamespace(doc));
  }
}

/** How far around a `kind:` line its `apiVersion:` is looked for (the work per object stays bounded). */
const apiVersionWindow = 4096;

/** The text of the document around a `kind:` line at `at`, before and after it, within a bounded window. */
function documentAround(text: string, at: number): { before: string; after: string } {
  const window = text.slice(Math.max(0, at - apiVersionWindow), at);
  const separator = window.lastIndexOf('\n---');
  const ahead = text.slice(at, at + apiVersionWindow);
  const next = ahead.indexOf('\n---');
  return { before: separator < 0 ? window : window.slice(separator), after: next < 0 ? ahead : ahead.slice(0, next) };
}

const apiVersionLine = /^apiVersion:[ \t]*["']?([A-Za-z0-9./-]+)["']?[ \t]*$/gm;
/** `metadata.namespace` as templates write it: two spaces in. */
const namespaceLine = /^ {2}namespace:[ \t]*(.*?)[ \t]*$/gm;

function lastMatch(re: RegExp, s: string): string | undefined {
  re.lastIndex = 0;
  let found: string | undefined;
  for (let m = re.exec(s); m; m = re.exec(s)) found = m[1];
  return found;
}

function firstMatch(re: RegExp, s: string): string | undefined {
  re.lastIndex = 0;
  return re.exec(s)?.[1];
}

/** A guarded object's namespace: the release's unless its metadata names another (undefined when computed). */
function objectNamespace(doc: { before: string; after: string }): string | undefined {
  const written = firstMatch(namespaceLine, doc.after) ?? lastMatch(namespaceLine, doc.before);
  return written === undefined ? releaseNamespace : namespaceOf(written);
}

/** `{release}`: the namespace the release is installed in, filled in by chartClusterDependences. */
const releaseNamespace = '{release}';

/** A namespace as a template writes it: literal, the release's, or undefined when computed. */
function namespaceOf(expression: string | undefined): string | undefined {
  if (expression === undefined) return undefined;
  const e = expression.trim().replace(/^\(\s*|\s*\)$/g, '');
  if (/^\{\{-?\s*\$?\.Release\.Namespace\s*(\|\s*quote\s*)?-?\}\}$/.test(e) || /^\$?\.Release\.Namespace$/.test(e)) return releaseNamespace;
  const literal = /^"([a-z0-9-]*)"$|^'([a-z0-9-]*)'$|^([a-z0-9-]+)$/.exec(e);
  // `""` in a lookup asks every namespace
  return literal && (literal[1] ?? literal[2] ?? literal[3]) ? (literal[1] ?? literal[2] ?? literal[3]) : undefined;
}

function atLineStart(text: string, at: number): boolean {
  const stop = Math.max(0, at - 256);
  for (let i = at - 1; i >= stop; i--) {
    if (text[i] === '\n') return true;
    if (text[i] !== ' ' && text[i] !== '\t') return false;
  }
  return stop === 0;
}

function shorten(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}

/** Kinds whose objects make pods (semantics §1.1): a looked-up or guarded one means pods the render may lack. */
export const podMakingKinds: ReadonlySet<string> = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'ReplicationController',
]);

/**
 * Every dependence on the cluster in a chart's templates (its subcharts' included), in file order, with
 * `.Release.Namespace` as the namespace of the release being rendered.
 */
export function chartClusterDependences(files: readonly string[], textOf: (uri: string) => string | undefined, namespace: string): ClusterDependence[] {
  const out: ClusterDependence[] = [];
  for (const uri of files) {
    if (!uri.includes('/templates/')) continue;
    const text = textOf(uri);
    if (text === undefined) continue;
    for (const d of clusterDependences(uri, text)) out.push(d.namespace === releaseNamespace ? { ...d, namespace } : d);
  }
  return out;
}
