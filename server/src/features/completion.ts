// completionAt: names that exist in the manifests, where a name is expected: StatefulSet serviceName, Ingress
// backend Services and ports, Service selector keys and values, targetPort names the selected containers declare, and
// for Gateway API routes the backendRef Services and ports and the parentRef Gateways and listener names.
// It reads the text line by line (indentation gives the parent keys), because the YAML is often incomplete mid-edit.

import { messages } from '../l10n/l10n';
import type { Analysis } from '../analysis/analysis';
import { isGateway, routeKinds } from '../model/gatewayApi';
import { isService, type Resource, type Service } from '../model/resources';
import type { Span } from '../model/span';
import { resourceAt } from './cursor';

export interface Completion {
  readonly label: string;
  readonly detail: string;
  /** Orders the list (lower first). */
  readonly sortText: string;
  /** The text the completion replaces (the word typed so far). */
  readonly span: Span;
  readonly kind: 'service' | 'port' | 'label';
}

interface LineContext {
  /** Parent keys from the document root down, without sequence markers. */
  readonly parents: readonly string[];
  /** The key on the cursor's line, when the cursor is in its value; undefined when typing a key. */
  readonly key?: string;
  readonly prefixSpan: Span;
  readonly lines: readonly string[];
  readonly lineNo: number;
  /** Line numbers of each parent key, parallel to `parents`. */
  readonly parentLines: readonly number[];
}

export function completionAt(workspace: Analysis, uri: string, text: string, offset: number): Completion[] {
  // Lookups answer within the scope of the file (model/project.ts).
  const analysis = workspace.scopeOf(uri).analysis;
  const ctx = lineContext(text, offset);
  if (!ctx) return [];
  const doc = documentFacts(text, offset);
  const resource = resourceAt(analysis, uri, offset);
  const kind = resource?.kind ?? doc.kind;
  const namespace = resource?.namespace ?? doc.namespace ?? analysis.config.defaultNamespace;
  const { parents, key } = ctx;
  const last = parents[parents.length - 1];
  const msg = messages(analysis.config.locale);

  if (kind === 'StatefulSet' && key === 'serviceName' && last === 'spec') return serviceItems(analysis, namespace, ctx.prefixSpan, true);
  if (kind === 'Ingress') {
    if (key === 'name' && last === 'service') return serviceItems(analysis, namespace, ctx.prefixSpan, false);
    if (key === 'serviceName') return serviceItems(analysis, namespace, ctx.prefixSpan, false);
    if ((key === 'name' || key === 'number') && last === 'port' && parents[parents.length - 2] === 'service') {
      const svc = analysis.cluster.service(namespace, backendServiceName(ctx) ?? '');
      if (!svc) return [];
      return svc.ports.flatMap((p, i): Completion[] => {
        const value = key === 'name' ? p.name : p.port === undefined ? undefined : String(p.port);
        return value === undefined
          ? []
          : [
              {
                label: value,
                detail: msg('port {0} of Service {1}', `${p.port ?? '?'}/${p.protocol}`, svc.name),
                sortText: String(i).padStart(4, '0'),
                span: ctx.prefixSpan,
                kind: 'port',
              },
            ];
      });
    }
  }
  if (kind && (routeKinds as readonly string[]).includes(kind)) {
    const ns = siblingValue(ctx, 'namespace') ?? namespace;
    if (last === 'backendRefs' && key === 'name') return serviceItems(analysis, ns, ctx.prefixSpan, false);
    if (last === 'backendRefs' && key === 'port') {
      const svc = analysis.cluster.service(ns, siblingValue(ctx, 'name') ?? '');
      return (svc?.ports ?? []).flatMap((p, i): Completion[] =>
        p.port === undefined
          ? []
          : [
              {
                label: String(p.port),
                detail: msg(
                  'Service port {0} of {1} → targetPort {2}',
                  `${p.port}/${p.protocol}${p.name ? ` (${p.name})` : ''}`,
                  svc!.name,
                  p.targetPort ?? p.port,
                ),
                sortText: String(i).padStart(4, '0'),
                span: ctx.prefixSpan,
                kind: 'port',
              },
            ],
      );
    }
    if (last === 'parentRefs' && key === 'name') {
      return (analysis.cluster.objectsIn(ns)?.gateways ?? []).map((g) => ({
        label: g.name,
        detail: g.gatewayClassName ? msg('Gateway in {0} (class {1})', ns, g.gatewayClassName) : msg('Gateway in {0}', ns),
        sortText: g.name,
        span: ctx.prefixSpan,
        kind: 'service' as const,
      }));
    }
    if (last === 'parentRefs' && key === 'sectionName') {
      const gateway = analysis.cluster.get('Gateway', ns, siblingValue(ctx, 'name') ?? '').find(isGateway);
      return (gateway?.listeners ?? []).flatMap((l, i): Completion[] =>
        l.name === undefined
          ? []
          : [
              {
                label: l.name,
                detail: msg('listener {0} of Gateway {1}', `${l.port ?? '?'}/${l.protocol ?? '?'}${l.hostname ? ` ${l.hostname}` : ''}`, gateway!.name),
                sortText: String(i).padStart(4, '0'),
                span: ctx.prefixSpan,
                kind: 'port',
              },
            ],
      );
    }
  }
  if (kind === 'Service') {
    const svc = resource && isService(resource) ? resource : undefined;
    if (last === 'selector' && parents[parents.length - 2] === 'spec') return selectorItems(analysis, namespace, ctx, svc);
    if (key === 'targetPort' && last === 'ports') return targetPortItems(analysis, namespace, ctx.prefixSpan, svc ?? resource);
  }
  return [];
}

function serviceItems(analysis: Analysis, namespace: string, span: Span, headlessFirst: boolean): Completion[] {
  const msg = messages(analysis.config.locale);
  return analysis.cluster.servicesIn(namespace).map((s) => {
    const rank = headlessFirst ? (s.headless ? 0 : 1) : 0;
    const detail = s.headless
      ? msg('headless Service')
      : s.type === 'ExternalName'
        ? `ExternalName → ${s.externalName ?? ''}`
        : msg('{0} Service (not headless)', s.type);
    return { label: s.name, detail, sortText: `${rank}${s.name}`, span, kind: 'service' as const };
  });
}

function selectorItems(analysis: Analysis, namespace: string, ctx: LineContext, svc: Service | undefined): Completion[] {
  const workloads = analysis.cluster.workloadsIn(namespace);
  const seen = new Map<string, number>();
  const msg = messages(analysis.config.locale);
  const templates = (n: number) => (n === 1 ? msg('{0} pod template', n) : msg('{0} pod templates', n));
  if (ctx.key === undefined) {
    for (const w of workloads) for (const k of w.template.labels.keys()) seen.set(k, (seen.get(k) ?? 0) + 1);
    return [...seen]
      .filter(([k]) => !svc?.selector?.has(k))
      .map(([k, n]) => ({
        label: k,
        detail: msg('label key on {0} in {1}', templates(n), namespace),
        sortText: k,
        span: ctx.prefixSpan,
        kind: 'label' as const,
      }));
  }
  for (const w of workloads) {
    const v = w.template.labels.get(ctx.key);
    if (v !== undefined) seen.set(v, (seen.get(v) ?? 0) + 1);
  }
  return [...seen].map(([v, n]) => ({
    label: v,
    detail: msg('{0} on {1} in {2}', `${ctx.key}=${v}`, templates(n), namespace),
    sortText: v,
    span: ctx.prefixSpan,
    kind: 'label' as const,
  }));
}

function targetPortItems(analysis: Analysis, namespace: string, span: Span, resource: Resource | undefined): Completion[] {
  const svc = resource && isService(resource) ? resource : undefined;
  const selected = svc?.selector ? analysis.endpointsOf(svc).groups.map((g) => g.workload) : [];
  const workloads = selected.length ? selected : analysis.cluster.workloadsIn(namespace);
  const out = new Map<string, Completion>();
  const msg = messages(analysis.config.locale);
  for (const w of workloads) {
    for (const c of w.template.containers) {
      for (const p of c.ports) {
        if (!p.name || out.has(p.name)) continue;
        out.set(p.name, {
          label: p.name,
          detail: msg('{0} in {1} {2}, container {3}', `${p.containerPort ?? '?'}/${p.protocol}`, w.kind, w.name, c.name),
          sortText: p.name,
          span,
          kind: 'port',
        });
      }
    }
  }
  return [...out.values()];
}

const keyLine = /^(\s*)(?:(-)\s+)?([A-Za-z0-9_./-]+):(?:\s|$)/;

function lineContext(text: string, offset: number): LineContext | undefined {
  const lines = text.slice(0, offset).split('\n');
  const lineNo = lines.length - 1;
  const before = lines[lineNo];
  let key: string | undefined;
  let keyCol: number;
  let prefix: string;
  const m = /^(\s*)(?:-\s+)?([A-Za-z0-9_./-]+):\s*["']?([^"'\s]*)$/.exec(before);
  if (m) {
    key = m[2];
    keyCol = before.indexOf(m[2], m[1].length);
    prefix = m[3];
  } else {
    const k = /^(\s*)(?:-\s+)?([A-Za-z0-9_./-]*)$/.exec(before);
    if (!k) return undefined;
    keyCol = before.length - k[2].length;
    prefix = k[2];
  }
  const all = text.split('\n');
  const parents: string[] = [];
  const parentLines: number[] = [];
  let threshold = keyCol;
  for (let i = lineNo - 1; i >= 0 && threshold > 0; i--) {
    const line = all[i];
    if (/^---/.test(line)) break;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const km = keyLine.exec(line);
    if (!km) {
      const dash = /^(\s*)-(\s|$)/.exec(line);
      if (dash && dash[1].length < threshold) threshold = dash[1].length + 1;
      continue;
    }
    const col = line.indexOf(km[3], km[1].length);
    if (col < threshold) {
      parents.unshift(km[3]);
      parentLines.unshift(i);
      threshold = col;
    }
    if (km[2] && km[1].length < threshold) threshold = km[1].length + 1;
  }
  return { parents, parentLines, key, prefixSpan: { start: offset - prefix.length, end: offset }, lines: all, lineNo };
}

/** The `name:` beside the cursor's `port:` inside an Ingress backend's `service:` block. */
function backendServiceName(ctx: LineContext): string | undefined {
  const serviceLine = ctx.parentLines[ctx.parentLines.length - 2];
  let childIndent: number | undefined;
  for (let i = serviceLine + 1; i < ctx.lines.length; i++) {
    const line = ctx.lines[i];
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    childIndent ??= indent;
    if (indent < childIndent) break;
    const m = /^\s*name:\s*["']?([^"'\s#]+)/.exec(line);
    if (m && indent === childIndent) return m[1];
  }
  return undefined;
}

/**
 * The value of `key` in the same sequence item as the cursor's line (`- name: web` above `port: |`), read from the
 * text so it works mid-edit.
 */
function siblingValue(ctx: LineContext, key: string): string | undefined {
  const column = (line: string) => {
    const m = /^(\s*)(- )?/.exec(line)!;
    return { col: m[1].length + (m[2] ? 2 : 0), item: !!m[2] };
  };
  const here = column(ctx.lines[ctx.lineNo]);
  const pattern = new RegExp(`^\\s*(?:- )?${key}:\\s*["']?([^"'\\s#,}]+)`);
  const scan = (from: number, step: number): string | undefined => {
    for (let i = from; i >= 0 && i < ctx.lines.length; i += step) {
      const line = ctx.lines[i];
      if (!line.trim() || line.trimStart().startsWith('#')) continue;
      const c = column(line);
      if (c.col < here.col) return undefined;
      if (c.col > here.col) continue;
      if (step > 0 && c.item) return undefined;
      const v = i === ctx.lineNo ? undefined : pattern.exec(line)?.[1];
      if (v) return v;
      if (step < 0 && c.item) return undefined;
    }
    return undefined;
  };
  if (here.item) return scan(ctx.lineNo + 1, 1);
  return scan(ctx.lineNo - 1, -1) ?? scan(ctx.lineNo + 1, 1);
}

/** kind and namespace of the YAML document around the cursor, read from its text (it may not parse yet). */
function documentFacts(text: string, offset: number): { kind?: string; namespace?: string } {
  const start = text.lastIndexOf('\n---', offset);
  const endAt = text.indexOf('\n---', offset);
  const doc = text.slice(start < 0 ? 0 : start + 4, endAt < 0 ? text.length : endAt);
  const kind = /^kind:\s*["']?([A-Za-z]+)/m.exec(doc)?.[1];
  const namespace = /^metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+namespace:\s*["']?([a-z0-9-]+)/m.exec(doc)?.[1];
  return { kind, namespace };
}
