// `kube-netlens check`: every finding in the given files, as text, JSON or SARIF; the exit code follows --fail-on.

import { analyzePaths } from './analyzePaths';
import { checkWithCharts } from './chartFindings';
import { helmOptionError } from './helmCharts';
import { isCollectError } from './collectFiles';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import type { Finding } from './featureTypes';
import { findingsToJson } from './findingsJson';
import { findingsToSarif } from './findingsSarif';
import { findingsToText } from './findingsText';
import { colourWanted, paintFor, type Paint } from './paint';
import type { CheckRequest, FailOn } from './parseArgs';
import { rangesIn } from './positions';
import { terminalOutput } from './terminalText';
import { terminalProgress } from './progress';
import { ruleCatalog } from '../features/ruleCatalog';
import { cliVersion } from './version';

export function checkCommand(request: CheckRequest, terminal: Terminal): CommandResult {
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const progress = terminal.progress && terminalProgress(terminal.progress);
  const loaded = analyzePaths(request, progress);
  if (isCollectError(loaded)) return failure(loaded.error);
  let checked;
  try {
    checked = checkWithCharts(loaded, request, terminal.env, progress);
  } finally {
    progress?.clear();
  }
  const findings = sortFindings(checked.findings);
  const rangeOf = rangesIn(loaded.sources);
  const stdout =
    request.format === 'json' ? findingsToJson(findings, rangeOf)
    : request.format === 'sarif' ? findingsToSarif(findings, rangeOf, ruleCatalog, cliVersion)
    : textOutput(terminal, (paint) => findingsToText(findings, rangeOf, checked.counts, paint));
  return { exitCode: findings.some((f) => reaches(f.severity, request.failOn)) ? 1 : 0, stdout, stderr: loaded.notes.map(note) };
}

/** Text for a terminal: composed with the colours wanted, then made safe as a whole (cli/terminalText.ts). */
export function textOutput(terminal: Terminal, compose: (paint: Paint) => string): string {
  const coloured = colourWanted(terminal.stdoutIsTTY, terminal.env);
  return terminalOutput(compose(paintFor(coloured)), coloured);
}

const rank: Record<Finding['severity'], number> = { error: 3, warning: 2, information: 1, hint: 0 };

function reaches(severity: Finding['severity'], failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return rank[severity] >= rank[failOn];
}

function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)));
}
