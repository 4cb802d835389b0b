// One failing handler answers an error for its own request and never stops the server.

import { LSPErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';

export function guarded<P, R>(connection: Connection, name: string, handler: (params: P) => R): (params: P) => R | ResponseError<void> {
  const failed = (err: unknown) => {
    connection.console.error(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return new ResponseError<void>(
      LSPErrorCodes.RequestFailed,
      `Kubernetes Network Lens could not answer ${name}: ${err instanceof Error ? err.message : String(err)}`,
    );
  };
  return (params: P) => {
    try {
      const r = handler(params);
      // a handler that waits (for the publishing pass) fails the same way when its promise does
      return r instanceof Promise ? (r.catch(failed) as R) : r;
    } catch (err) {
      return failed(err);
    }
  };
}

/** For notifications: log and carry on. */
export function logged<P>(connection: Connection, name: string, handler: (params: P) => void | Promise<void>): (params: P) => void {
  return (params: P) => {
    try {
      const r = handler(params);
      if (r instanceof Promise) r.catch((err) => connection.console.error(`${name} failed: ${String(err instanceof Error ? (err.stack ?? err) : err)}`));
    } catch (err) {
      connection.console.error(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  };
}
