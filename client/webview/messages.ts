// The messages the trace view exchanges with its panel host: data in, intents out.
import type { TraceClient, TraceParams, TraceResult } from '../../server/src/protocol';

/** What the host sends: a trace to draw, an error to show instead, or a note that a new trace is on its way. */
export type ViewInbound =
  /** `target`: what the host traced, kept as the view's state so a reload traces the same object again. */
  | { readonly type: 'trace'; readonly result: TraceResult; readonly target?: ViewState }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'loading' };

/** What the view asks of the host; the host checks each against its allow-list. */
export type ViewOutbound =
  | { readonly type: 'ready' }
  | { readonly type: 'reveal'; readonly nodeId: string }
  | { readonly type: 'copyMermaid' }
  | { readonly type: 'saveSvg'; readonly svg: string }
  | { readonly type: 'pickClient' };

/**
 * Kept by VS Code across reloads so the panel serializer can trace the same Service (Gateway, route, Istio Gateway,
 * VirtualService: `kind`; the definition in `uri`) again; the host reads it through its allow-list (readTraceTarget).
 */
export interface ViewState {
  readonly kind?: TraceParams['kind'];
  readonly namespace: string;
  readonly name: string;
  readonly uri?: string;
  /** The client the trace is drawn for, if one was chosen. */
  readonly client?: TraceClient;
}
