// hoverAt: what the thing under the cursor is and what it does to traffic, as Markdown headed by its name.

import type { Analysis } from '../analysis/analysis';
import { isGateway, isRoute, type GatewayRoute } from '../model/gatewayApi';
import { code, joined, text, type Md, mdMessages } from './markdown';
import { isService, isWorkload, type Ingress, type Service, type Workload } from '../model/resources';
import { fileNamed } from '../model/cluster';
import { messages } from '../l10n/l10n';
import { buildLabel, mappingsAtSource, sourceOf } from '../model/rendered';
import { spanContains, type Span } from '../model/span';
import { endsWith, keysOf, placeAt, type CursorPlace } from './cursor';
import {
  externalNameHover,
  externalTrafficPolicyHover,
  ingressBackendHover,
  publishNotReadyHover,
  selectorHover,
  servicePortHover,
  sessionAffinityHover,
} from './hoverFields';
import { backendRefHover, gatewayHover, listenerHover, parentRefHover, routeHostnameHover } from './hoverGateway';
import { nameHover } from './hoverName';
import { istioDestinationHover, istioSubsetHover } from './hoverIstio';
import { isDestinationRule, isIstioNetworkingVersion, isVirtualService } from '../model/istio';
import { serviceHover } from './hoverService';
import { containerPortHover, hostnameHover, labelsHover, serviceNameHover } from './hoverWorkload';
import { workloadReachHover } from './hoverReach';
import { nameAt } from './nameToken';
import { diagnosticsFor } from './diagnostics';
import type { Finding } from '../rules/finding';

export interface Hover {
  readonly markdown: Md;
  /** The span the hover is about (the editor highlights it). */
  readonly span: Span;
}

/**
 * `shown`: the findings the editor shows, when the caller knows them (the server, which must not evaluate the rules
 * to answer a hover); without it they are those of the analysis.
 */
export function hoverAt(workspace: Analysis, uri: string, offset: number, shown?: readonly Finding[]): Hover | undefined {
  const msg = mdMessages(workspace.config.locale);
  // Everything a hover says is said within the scope of its file (model/project.ts), and names that scope when the
  // workspace holds variants.
  const scope = workspace.scopeOf(uri);
  const hover = hoverInScope(scope.analysis, uri, offset, shown) ?? renderedHover(workspace, uri, offset, shown);
  // A Service hover names its variant on its first line; the others say it at the end.
  if (!hover || !scope.label || hover.markdown.startsWith('**Service**')) return hover;
  return {
    ...hover,
    markdown: msg(
      '{0}\n\n---\n\nAnalysed with variant {1}: other parts of the workspace define the same objects differently, so they are never applied with it.',
      hover.markdown,
      code(scope.label),
    ),
  };
}

function hoverInScope(analysis: Analysis, uri: string, offset: number, shown: readonly Finding[] | undefined): Hover | undefined {
  const place = placeAt(analysis, uri, offset);
  return place && hoverOn(analysis, place, offset, shown);
}

/**
 * In a file a Kustomize build reads (a base), the hover of what the cursor is on in each build that includes it
 * (`prod-web.prod.svc.cluster.local` in overlays/prod, `dev-web.dev.svc.cluster.local` in overlays/dev).
 */
function renderedHover(workspace: Analysis, uri: string, offset: number, shown: readonly Finding[] | undefined): Hover | undefined {
  const msg = mdMessages(workspace.config.locale);
  const source = fileNamed(workspace.cluster.files, uri);
  if (!source || source.skipped !== 'build-input') return undefined;
  const lineStart = source.text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = source.text.indexOf('\n', offset);
  const line = source.text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const onHead = /^(kind| {2}name):/.test(line);
  // On an object's kind or name line the hover is about the value written there.
  const colon = line.indexOf(':') + 1;
  const value = line.slice(colon).trim();
  const headSpan = onHead && value ? { start: lineStart + line.indexOf(value, colon), end: lineStart + line.indexOf(value, colon) + value.length } : undefined;
  const parts: Md[] = [];
  let span: Span | undefined;
  for (const f of workspace.cluster.files) {
    if (!f.rendered) continue;
    // Each build is a scope of its own: its hover is said within it.
    const analysis = workspace.scopeOf(f.uri).analysis;
    const found = mappingsAtSource(f.rendered.text.mappings, uri, offset);
    if (!found) continue;
    const { inner, outer } = found;
    let markdown: Md | undefined;
    let at: Span = inner.span;
    const ro = inner.rendered.start + Math.min(offset - inner.span.start, Math.max(0, inner.rendered.end - inner.rendered.start - 1));
    const place = placeAt(analysis, f.uri, ro);
    const h = place && hoverOn(analysis, place, ro, shown);
    if (h) {
      markdown = h.markdown;
      const back = sourceOf(f.rendered.text, h.span);
      if (back && back.uri === uri) at = back.span;
    } else if (onHead) {
      // The object's name and kind: its own hover (the rendered name comes from the kustomization that made it).
      const whole = placeAt(analysis, f.uri, outer.rendered.start + 1);
      if (whole && isService(whole.resource)) markdown = serviceHover(analysis, whole.resource);
    }
    if (markdown === undefined) continue;
    span ??= headSpan ?? at;
    parts.push(msg('**In the build of {0}**\n\n{1}', text(buildLabel(f.rendered.label, messages(analysis.config.locale))), markdown));
  }
  return parts.length && span ? { markdown: joined(parts, '\n\n---\n\n'), span } : undefined;
}

function hoverOn(analysis: Analysis, place: CursorPlace, offset: number, shown: readonly Finding[] | undefined): Hover | undefined {
  // The editor shows a diagnostic's message above the hover at the same place: the hover then states the facts and
  // leaves saying what is wrong (and the near misses) to the diagnostic, instead of repeating it.
  const uri = place.resource.uri;
  const diagnosed = (shown ?? diagnosticsFor(analysis)).some((f) => f.uri === uri && f.span.start <= offset && offset <= f.span.end);
  const r = place.resource;
  if (isService(r)) return serviceFieldHover(analysis, r, place, offset, diagnosed);
  if (isWorkload(r)) return workloadHover(analysis, r, place, offset, diagnosed);
  if (r.kind === 'Ingress') return ingressHover(analysis, r as Ingress, offset, diagnosed);
  if (r.kind === 'ConfigMap') return textNameHover(analysis, place, offset, diagnosed);
  if (isRoute(r)) return routeHover(analysis, r, offset);
  if (isIstioNetworkingVersion(r.apiVersion)) return istioHover(analysis, r, offset);
  if (isGateway(r)) {
    if (spanContains(r.nameSpan, offset) || spanContains(r.kindSpan, offset))
      return { markdown: gatewayHover(analysis, r), span: spanContains(r.nameSpan, offset) ? r.nameSpan : r.kindSpan };
    const l = r.listeners.find((x) => spanContains(x.span, offset));
    return l ? { markdown: listenerHover(analysis, r, l), span: l.nameSpan && spanContains(l.nameSpan, offset) ? l.nameSpan : l.span } : undefined;
  }
  return undefined;
}

/** A VirtualService destination, a DestinationRule subset (istio-semantics §I2, §I3). */
function istioHover(analysis: Analysis, r: CursorPlace['resource'], offset: number): Hover | undefined {
  if (isVirtualService(r)) {
    const d = r.destinations.find((x) => spanContains(x.span, offset));
    return d ? { markdown: istioDestinationHover(analysis, r, d), span: d.hostSpan && spanContains(d.hostSpan, offset) ? d.hostSpan : d.span } : undefined;
  }
  if (isDestinationRule(r)) {
    const s = r.subsets.find((x) => spanContains(x.span, offset));
    return s ? { markdown: istioSubsetHover(analysis, r, s), span: s.nameSpan && spanContains(s.nameSpan, offset) ? s.nameSpan : s.span } : undefined;
  }
  return undefined;
}

function routeHover(analysis: Analysis, route: GatewayRoute, offset: number): Hover | undefined {
  const host = route.hostnames.find((h) => spanContains(h.span, offset));
  if (host) return { markdown: routeHostnameHover(analysis, route, host.value), span: host.span };
  const parent = route.parentRefs.find((p) => spanContains(p.span, offset));
  if (parent) return { markdown: parentRefHover(analysis, route, parent), span: parent.span };
  for (const rule of route.rules) {
    const b = rule.backendRefs.find((x) => spanContains(x.span, offset));
    if (b) return { markdown: backendRefHover(analysis, route, rule, b), span: b.span };
  }
  return undefined;
}

function serviceFieldHover(analysis: Analysis, s: Service, place: CursorPlace, offset: number, diagnosed: boolean): Hover | undefined {
  const keys = keysOf(place.path);
  const last = place.path[place.path.length - 1];
  const span = (last && (place.onKey ? last.keySpan : last.node.span)) ?? s.nameSpan;
  if (
    spanContains(s.nameSpan, offset) ||
    spanContains(s.kindSpan, offset) ||
    (keys.length === 1 && keys[0] === 'kind') ||
    (keys.length === 2 &&
      (endsWith(keys, 'metadata', 'name') || endsWith(keys, 'spec', 'type') || endsWith(keys, 'spec', 'clusterIP') || endsWith(keys, 'spec', 'clusterIPs'))) ||
    (keys.length === 3 && endsWith(keys, 'spec', 'clusterIPs'))
  ) {
    return { markdown: serviceHover(analysis, s), span };
  }
  if (keys.length === 3 && keys[0] === 'spec' && keys[1] === 'selector') return { markdown: selectorHover(analysis, s, keys[2], diagnosed), span };
  if (keys.length === 3 && keys[0] === 'spec' && keys[1] === 'ports' && (keys[2] === 'targetPort' || keys[2] === 'name')) {
    const port = s.ports.find((p) => spanContains(p.span, offset));
    if (port) return { markdown: servicePortHover(analysis, s, port, keys[2]), span };
  }
  if (keys.length !== 2 || keys[0] !== 'spec') return undefined;
  switch (keys[1]) {
    case 'externalName':
      return { markdown: externalNameHover(mdMessages(analysis.config.locale), s), span };
    case 'publishNotReadyAddresses':
      return { markdown: publishNotReadyHover(mdMessages(analysis.config.locale), s), span };
    case 'sessionAffinity':
      return { markdown: sessionAffinityHover(mdMessages(analysis.config.locale), s), span };
    case 'externalTrafficPolicy':
      return { markdown: externalTrafficPolicyHover(mdMessages(analysis.config.locale), s), span };
  }
  return undefined;
}

function workloadHover(analysis: Analysis, w: Workload, place: CursorPlace, offset: number, diagnosed: boolean): Hover | undefined {
  // The workload's name or kind: its NetworkPolicy reach in both directions (first: it needs no YAML path, and the
  // `spec.serviceName` below is never at the name or kind).
  if (spanContains(w.nameSpan, offset) || spanContains(w.kindSpan, offset))
    return { markdown: workloadReachHover(analysis, w), span: spanContains(w.nameSpan, offset) ? w.nameSpan : w.kindSpan };
  const last = place.path[place.path.length - 1];
  const span = (last && (place.onKey ? last.keySpan : last.node.span)) ?? w.nameSpan;
  const t = w.template;
  if (w.kind === 'StatefulSet' && last?.key === 'serviceName' && keysOf(place.path).length === 2)
    return { markdown: serviceNameHover(analysis, w, diagnosed), span };
  for (const [key, spans] of t.labelSpans) {
    if (spanContains(spans.key, offset) || spanContains(spans.value, offset))
      return { markdown: labelsHover(analysis, w, key), span: { start: spans.key.start, end: spans.value.end } };
  }
  // Nodes of two reads of one file are different objects: the pod spec is recognised by where it is.
  if (
    last &&
    (last.key === 'hostname' || last.key === 'subdomain') &&
    t.specSpan &&
    last.parent.span.start === t.specSpan.start &&
    last.parent.span.end === t.specSpan.end
  ) {
    return { markdown: hostnameHover(analysis, w, last.key), span };
  }
  for (const c of t.containers) {
    if (!spanContains(c.span, offset)) continue;
    for (const p of c.ports) {
      const onName = p.nameSpan && spanContains(p.nameSpan, offset);
      const onPort = p.containerPortSpan && spanContains(p.containerPortSpan, offset);
      if ((onName || onPort || last?.key === 'containerPort' || last?.key === 'name') && spanContains(p.span, offset)) {
        return { markdown: containerPortHover(analysis, w, c, p), span };
      }
    }
  }
  return textNameHover(analysis, place, offset, diagnosed);
}

function ingressHover(analysis: Analysis, ing: Ingress, offset: number, diagnosed: boolean): Hover | undefined {
  const routes = analysis.ingressRoutes().filter((r) => r.ingress === ing && spanContains(r.backendSpan, offset));
  if (!routes.length) return undefined;
  const route = routes.reduce((a, b) => (b.backendSpan.end - b.backendSpan.start < a.backendSpan.end - a.backendSpan.start ? b : a));
  return { markdown: ingressBackendHover(analysis, route, diagnosed), span: route.backendSpan };
}

function textNameHover(analysis: Analysis, place: CursorPlace, offset: number, diagnosed: boolean): Hover | undefined {
  const source = fileNamed(analysis.cluster.files, place.resource.uri)?.text;
  if (source === undefined) return undefined;
  const at = nameAt(analysis, place.resource, source, offset);
  if (!at) return undefined;
  return { markdown: nameHover(analysis, at, place.resource.namespace, diagnosed), span: at.token.span };
}
