// The messages the trace view exchanges with its panel host: data in, intents out.
import type { TraceClient, TraceResult } from '../../server/src/protocol';

/** What the host sends: a trace to draw, an error to show instead, or a note that a new trace is on its way. */
export type ViewInbound =
  | { readonly type: 'trace'; readonly result: TraceResult }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'loading' };

/** What the view asks of the host; the host checks each against its allow-list. */
export type ViewOutbound =
  | { readonly type: 'ready' }
  | { readonly type: 'reveal'; readonly nodeId: string }
  | { readonly type: 'copyMermaid' }
  | { readonly type: 'saveSvg'; readonly svg: string }
  | { readonly type: 'pickClient' };

/** Kept by VS Code across reloads so the panel serializer can trace the same Service again. */
export interface ViewState {
  readonly namespace: string;
  readonly name: string;
  /** The client the trace is drawn for, if one was chosen. */
  readonly client?: TraceClient;
}
