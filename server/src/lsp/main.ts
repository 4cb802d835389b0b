// Entry of dist/server.js: an LSP connection over stdio (or IPC when started by the VS Code client).
// stdout carries protocol frames only, so console output is routed to the client's log.

import { format } from 'node:util';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const connection = createConnection(ProposedFeatures.all);
console.log = (...args: unknown[]) => connection.console.log(format(...args));
console.info = (...args: unknown[]) => connection.console.info(format(...args));
console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
console.error = (...args: unknown[]) => connection.console.error(format(...args));
process.on('uncaughtException', (err) => connection.console.error(`unexpected error: ${err.stack ?? err.message}`));
process.on('unhandledRejection', (err) => connection.console.error(`unexpected rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
startServer(connection);
