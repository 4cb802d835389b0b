// Host names written inside free text (env values, command/args items, ConfigMap data): `db`, `mysql.db:3306`,
// `http://api.shop.svc.cluster.local:8080/x`. Finds the one under the cursor and all of them in a value.

import type { Analysis, NameResolution } from '../analysis/analysis';
import type { Resource, TextValue } from '../model/resources';
import { isWorkload } from '../model/resources';
import type { ConfigMap } from '../model/resources';
import { spanContains, type Span } from '../model/span';

export interface NameToken {
  /** `host` or `host:port`, as a pod would pass it to its resolver. */
  readonly text: string;
  readonly span: Span;
}

const token = /[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?(?::\d{1,5}(?![\d.]))?/g;

/** Host-like tokens of the source text inside `span`; a scheme (`http` before `://`) is not a host. */
export function nameTokens(source: string, span: Span): NameToken[] {
  const raw = source.slice(span.start, span.end);
  const out: NameToken[] = [];
  for (const m of raw.matchAll(token)) {
    const start = span.start + m.index!;
    if (raw.startsWith('://', m.index! + m[0].length)) continue;
    if (/^\d+(\.\d+)*$/.test(m[0].split(':')[0])) continue; // numbers and IP addresses
    out.push({ text: m[0], span: { start, end: start + m[0].length } });
  }
  return out;
}

/** Every free-text value of a resource where a pod (or its ConfigMap) may name a host. */
export function textValuesOf(r: Resource): readonly TextValue[] {
  if (isWorkload(r)) return r.template.containers.flatMap((c) => [...c.env, ...c.command, ...c.args]);
  if (r.kind === 'ConfigMap') return (r as ConfigMap).data;
  return [];
}

export interface NameAt {
  readonly token: NameToken;
  readonly value: TextValue;
  readonly resolution: NameResolution;
}

/** The host name under the cursor in a resource's free text, resolved from the resource's namespace. */
export function nameAt(analysis: Analysis, resource: Resource, source: string, offset: number): NameAt | undefined {
  const value = textValuesOf(resource).find((v) => spanContains(v.span, offset));
  if (!value) return undefined;
  const token = nameTokens(source, value.span).find((t) => spanContains(t.span, offset));
  if (!token) return undefined;
  const resolution = analysis.resolveName(token.text, resource.namespace, resource.uri);
  const whole = value.value.trim() === token.text;
  if (!looksLikeClusterName(analysis, token.text, resolution, whole)) return undefined;
  return { token, value, resolution };
}

/** Words in free text are names only when they land on something, mention `.svc`, or are the whole value. */
export function looksLikeClusterName(analysis: Analysis, text: string, r: NameResolution, wholeValue: boolean): boolean {
  if (r.service || r.records.length) return true;
  const host = text.split(':')[0].toLowerCase();
  if (/\.svc(\.|$)/.test(host)) return true;
  const labels = host.split('.');
  if (labels.length >= 2 && analysis.cluster.namespaces.has(labels[1])) return true;
  return wholeValue && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(host) && /[a-z]/.test(host);
}
