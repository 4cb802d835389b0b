// One command line → one result. Pure apart from reading the files it is pointed at.

import { buildCommand } from './buildCommand';
import { checkCommand } from './checkCommand';
import { failure, type CommandResult, type Terminal } from './commandResult';
import { diffCommand } from './diffCommand';
import { dnsCommand } from './dnsCommand';
import { parseArgs } from './parseArgs';
import { reachCommand } from './reachCommand';
import { traceCommand } from './traceCommand';
import { helpText } from './usage';
import { cliVersion } from './version';

export function runCli(argv: readonly string[], terminal: Terminal): CommandResult {
  const request = parseArgs(argv);
  switch (request.command) {
    case 'usage-error':
      return failure(request.message);
    case 'help':
      return { exitCode: 0, stdout: helpText(request.topic), stderr: [] };
    case 'version':
      return { exitCode: 0, stdout: `${cliVersion}\n`, stderr: [] };
    case 'check':
      return checkCommand(request, terminal);
    case 'dns':
      return dnsCommand(request, terminal);
    case 'trace':
      return traceCommand(request, terminal);
    case 'build':
      return buildCommand(request, terminal);
    case 'reach':
      return reachCommand(request, terminal);
    case 'diff':
      return diffCommand(request, terminal);
  }
}
