// The one handle on the webview host: posting intents and keeping state across reloads.
import type { ViewOutbound, ViewState } from './messages';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface HostApi {
  post(message: ViewOutbound): void;
  remember(state: ViewState): void;
}

/** acquireVsCodeApi may be called once per page load, so the view holds the single instance. */
export function connectHost(): HostApi {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    remember: (state) => api.setState(state),
  };
}
