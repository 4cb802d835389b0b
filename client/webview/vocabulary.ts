// The words and markers the trace view uses for columns, node kinds, statuses and packet-path zones.
import type { PacketHopZone, TraceColumn, TraceNodeKind, TraceStatus } from '../../server/src/protocol';
import { words } from './words';

/**
 * Left to right: the Gateway listeners and route rules a request passes first, who calls, the Service, kube-proxy,
 * the pods behind it, the port they receive on, the policies guarding them.
 */
export const columnOrder: readonly TraceColumn[] = ['listener', 'route', 'entry', 'service', 'proxy', 'endpoints', 'port', 'policy'];

/** The words are the reader's language (words.ts); the keys are the protocol's. */
export const columnTitle: Readonly<Record<TraceColumn, string>> = words.column;

export const kindCaption: Readonly<Record<TraceNodeKind, string>> = words.kind;

/** Status is never shown by colour alone: each has a symbol and a word. */
export const statusMarker: Readonly<Record<TraceStatus, { readonly symbol: string; readonly word: string }>> = {
  ok: { symbol: '✓', word: words.status.ok },
  conditional: { symbol: '◐', word: words.status.conditional },
  warning: { symbol: '⚠', word: words.status.warning },
  error: { symbol: '✖', word: words.status.error },
};

export const edgeWord: Readonly<Record<'ok' | 'conditional' | 'broken', string>> = words.edge;

export const zoneTitle: Readonly<Record<PacketHopZone, string>> = words.zone;

export function isColumn(value: unknown): value is TraceColumn {
  return typeof value === 'string' && (columnOrder as readonly string[]).includes(value);
}

export function isStatus(value: unknown): value is TraceStatus {
  return value === 'ok' || value === 'conditional' || value === 'warning' || value === 'error';
}
