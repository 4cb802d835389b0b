// The words and markers the trace view uses for columns, node kinds, statuses and packet-path zones.
import type { PacketHopZone, TraceColumn, TraceNodeKind, TraceStatus } from '../../server/src/protocol';

/**
 * Left to right: the Gateway listeners and route rules a request passes first, who calls, the Service, kube-proxy,
 * the pods behind it, the port they receive on, the policies guarding them.
 */
export const columnOrder: readonly TraceColumn[] = ['listener', 'route', 'entry', 'service', 'proxy', 'endpoints', 'port', 'policy'];

export const columnTitle: Readonly<Record<TraceColumn, string>> = {
  listener: 'Gateway listener',
  route: 'Route rule',
  entry: 'How clients reach it',
  service: 'Service',
  proxy: 'kube-proxy',
  endpoints: 'Endpoints (pods)',
  port: 'Container port',
  policy: 'NetworkPolicy',
};

export const kindCaption: Readonly<Record<TraceNodeKind, string>> = {
  'gateway-listener': 'Gateway listener',
  'route-rule': 'Route rule',
  'backend-ref': 'Route backend',
  client: 'Client',
  dns: 'DNS name',
  nodeport: 'NodePort',
  loadbalancer: 'LoadBalancer',
  ingress: 'Ingress rule',
  'external-ip': 'External IP',
  service: 'Service',
  'external-name': 'ExternalName',
  'kube-proxy': 'kube-proxy',
  workload: 'Endpoint group',
  'manual-endpoints': 'Manual endpoints',
  'no-endpoints': 'No endpoints',
  'container-port': 'Container port',
  'network-policy': 'NetworkPolicy',
};

/** Status is never shown by colour alone: each has a symbol and a word. */
export const statusMarker: Readonly<Record<TraceStatus, { readonly symbol: string; readonly word: string }>> = {
  ok: { symbol: '✓', word: 'works' },
  conditional: { symbol: '◐', word: 'works under conditions' },
  warning: { symbol: '⚠', word: 'warning' },
  error: { symbol: '✖', word: 'broken' },
};

export const edgeWord: Readonly<Record<'ok' | 'conditional' | 'broken', string>> = {
  ok: 'passes',
  conditional: 'passes under conditions',
  broken: 'blocked',
};

export const zoneTitle: Readonly<Record<PacketHopZone, string>> = {
  'client-pod': 'Client pod',
  'client-node': 'Client node',
  wire: 'Node network',
  'target-node': 'Target node',
  'target-pod': 'Target pod',
};

export function isColumn(value: unknown): value is TraceColumn {
  return typeof value === 'string' && (columnOrder as readonly string[]).includes(value);
}

export function isStatus(value: unknown): value is TraceStatus {
  return value === 'ok' || value === 'conditional' || value === 'warning' || value === 'error';
}
