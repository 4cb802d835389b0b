// Ingress validation as the API server does it for networking.k8s.io/v1 (semantics §6): every path has a pathType, an
// absolute path where the type needs one, and a backend that is a Service (with a name and one port, by number or by
// name) or a resource, never both. Kubernetes' own rules (pkg/apis/networking/validation: validateHTTPIngressPath,
// validateIngressBackend, ValidateIngressSpec); the wording of the reasons is the API server's.
//
// The backend of the removed v1beta1 API (`serviceName`, `servicePort`) written in a v1 object is the most common case:
// kubectl's default strict field validation refuses the unknown fields, and without them the backend has neither a
// Service nor a resource, which the API server rejects too. It is reported once, on the v1beta1 field, with the v1 shape.

import type { Resource } from '../../model/resources';
import { at, entry, items, type YNode } from '../../model/yamlTree';
import { dns1035LabelErrors, portNameErrors, portNumberErrors } from './formats';
import { invalid, keySpanOf, readInt, readMap, readSeq, readString, report, shown, type ValidationContext } from './violation';
import { treeOf } from '../../model/trees';
import { phrase } from '../../l10n/l10n';

const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];

export function validateIngress(ctx: ValidationContext, ing: Resource): void {
  if (ing.apiVersion !== 'networking.k8s.io/v1') return;
  const spec = readMap(ctx, at(treeOf(ing), 'spec'), 'spec');
  const rules = items(readSeq(ctx, at(spec, 'rules'), 'spec.rules'));
  const defaultBackend = at(spec, 'defaultBackend');
  if (!rules.length && (defaultBackend === undefined || isNullNode(defaultBackend))) {
    report(
      ctx,
      'spec',
      keySpanOf(treeOf(ing), 'spec') ?? ing.nameSpan,
      'Invalid value: either `defaultBackend` or `rules` must be specified',
      phrase('an Ingress with neither routes nothing'),
    );
  }
  if (defaultBackend !== undefined && !isNullNode(defaultBackend)) validateBackend(ctx, defaultBackend, 'spec.defaultBackend');
  rules.forEach((rule, i) => {
    const http = readMap(ctx, at(rule, 'http'), `spec.rules[${i}].http`);
    if (!http) return;
    const paths = readSeq(ctx, at(http, 'paths'), `spec.rules[${i}].http.paths`);
    if (!paths || !paths.items.length) {
      report(ctx, `spec.rules[${i}].http.paths`, keySpanOf(http, 'paths') ?? http.span, 'Required value', phrase('an http rule needs at least one path'));
      return;
    }
    items(paths).forEach((p, j) => validatePath(ctx, p, `spec.rules[${i}].http.paths[${j}]`));
  });
}

function validatePath(ctx: ValidationContext, p: YNode, path: string): void {
  const m = readMap(ctx, p, path);
  if (!m) return;
  const typeNode = at(m, 'pathType');
  const type = readString(ctx, typeNode, `${path}.pathType`);
  const pathNode = at(m, 'path');
  const value = readString(ctx, pathNode, `${path}.path`);
  if (type === undefined) {
    if (typeNode === undefined || isNullNode(typeNode)) {
      report(
        ctx,
        `${path}.pathType`,
        keySpanOf(m, 'path') ?? keySpanOf(m, 'backend') ?? m.span,
        'Required value: pathType must be specified',
        phrase(
          'networking.k8s.io/v1 needs pathType on every path: Prefix (the path and everything below it), Exact, or ImplementationSpecific (what the ingress controller makes of it)',
        ),
      );
    }
  } else if (!pathTypes.includes(type)) {
    report(ctx, `${path}.pathType`, typeNode!.span, `Unsupported value: ${shown(type)}: supported values: ${pathTypes.map((t) => shown(t)).join(', ')}`);
  } else if (value !== undefined && (type !== 'ImplementationSpecific' || value.length > 0) && !value.startsWith('/')) {
    invalid(ctx, `${path}.path`, pathNode!.span, value, ['must be an absolute path'], phrase('paths start with "/"'));
  }
  const backend = at(m, 'backend');
  if (backend === undefined || isNullNode(backend)) {
    report(ctx, `${path}.backend`, keySpanOf(m, 'path') ?? m.span, 'Invalid value: "": resource or service backend is required');
    return;
  }
  validateBackend(ctx, backend, `${path}.backend`);
}

function validateBackend(ctx: ValidationContext, n: YNode, path: string): void {
  const m = readMap(ctx, n, path);
  if (!m) return;
  const legacy = entry(m, 'serviceName') ?? entry(m, 'servicePort');
  const service = at(m, 'service');
  const resource = at(m, 'resource');
  if (legacy && service === undefined && resource === undefined) {
    const name = at(m, 'serviceName');
    const port = at(m, 'servicePort');
    const v1 = `service: {name: ${scalarText(name) ?? '<name>'}, port: {${portField(port)}}}`;
    report(
      ctx,
      `${path}.${entry(m, 'serviceName') ? 'serviceName' : 'servicePort'}`,
      legacy.keySpan,
      'Unknown field',
      phrase(
        "serviceName and servicePort are the fields of the removed networking.k8s.io/v1beta1 Ingress; in v1 the backend is written {0}. kubectl's field validation refuses the unknown field, and without it the backend names no Service, which the API server rejects",
        v1,
      ),
    );
    return;
  }
  if (service !== undefined && resource !== undefined) {
    report(ctx, path, keySpanOf(m, 'resource') ?? m.span, 'Invalid value: "": cannot set both resource and service backends');
    return;
  }
  if (resource !== undefined) return;
  const svc = readMap(ctx, service, `${path}.service`);
  if (!svc) {
    if (service === undefined || isNullNode(service)) report(ctx, path, m.span, 'Invalid value: "": resource or service backend is required');
    return;
  }
  const nameNode = at(svc, 'name');
  const name = readString(ctx, nameNode, `${path}.service.name`);
  if (!name) report(ctx, `${path}.service.name`, nameNode?.span ?? keySpanOf(m, 'service') ?? svc.span, 'Required value');
  else invalid(ctx, `${path}.service.name`, nameNode!.span, name, dns1035LabelErrors(name));
  const port = readMap(ctx, at(svc, 'port'), `${path}.service.port`);
  const numberNode = at(port, 'number');
  const portNameNode = at(port, 'name');
  const number = readInt(ctx, numberNode, `${path}.service.port.number`);
  const portName = readString(ctx, portNameNode, `${path}.service.port.name`);
  const portSpan = keySpanOf(svc, 'port') ?? keySpanOf(m, 'service') ?? svc.span;
  if (portName && number) report(ctx, path, portSpan, 'Invalid value: "": cannot set both port name & port number');
  else if (portName) invalid(ctx, `${path}.service.port.name`, portNameNode!.span, portName, portNameErrors(portName));
  else if (number) invalid(ctx, `${path}.service.port.number`, numberNode!.span, number, portNumberErrors(number));
  else if (numberNode === undefined && portNameNode === undefined)
    report(
      ctx,
      path,
      portSpan,
      'Required value: port name or number is required',
      phrase('the backend must say which port of the Service receives the requests: port: {number: 80} or port: {name: http}'),
    );
}

function isNullNode(n: YNode): boolean {
  return n.type === 'scalar' && n.value === null;
}

function scalarText(n: YNode | undefined): string | undefined {
  return n?.type === 'scalar' && n.value !== null ? String(n.value) : undefined;
}

/** The v1 port field for a v1beta1 servicePort: a number stays a number, a name a name. */
function portField(n: YNode | undefined): string {
  const v = n?.type === 'scalar' ? n.value : undefined;
  if (typeof v === 'number') return `number: ${v}`;
  if (typeof v === 'string') return /^\d+$/.test(v) ? `number: ${v}` : `name: ${v}`;
  return 'number: <port>';
}
