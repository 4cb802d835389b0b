// Findings → compiler-style lines (`file:line:col: severity code: message`), grouped by file, with a summary line.

import type { FileCounts } from './analyzePaths';
import type { Finding } from './featureTypes';
import type { Paint } from './paint';
import type { RangeOf } from './positions';
import { terminalSafe } from './terminalText';
import { messages, type Msg } from '../l10n/l10n';

export function findingsToText(findings: readonly Finding[], rangeOf: RangeOf, counts: FileCounts, paint: Paint, msg: Msg = messages(undefined)): string {
  const lines: string[] = [];
  let file: string | undefined;
  for (const f of findings) {
    if (file !== undefined && f.uri !== file) lines.push('');
    file = f.uri;
    const at = rangeOf(f.uri, f.span).start;
    const [first, ...more] = f.message.split('\n').map((m) => terminalSafe(m));
    lines.push(
      `${paint.bold(`${terminalSafe(f.uri)}:${at.line + 1}:${at.character + 1}:`)} ${severityLabel(f.severity, paint)} ${paint.dim(terminalSafe(f.code))}: ${first}`,
    );
    for (const m of more) lines.push(`    ${m}`);
    for (const r of f.related ?? []) {
      const p = rangeOf(r.uri, r.span).start;
      lines.push(`    ${paint.bold(`${terminalSafe(r.uri)}:${p.line + 1}:${p.character + 1}:`)} ${paint.cyan('note')}: ${terminalSafe(r.message)}`);
    }
  }
  if (lines.length) lines.push('');
  lines.push(summaryOf(findings, counts, msg));
  return lines.join('\n') + '\n';
}

/**
 * `3 errors, 5 warnings in 12 files (2 template files skipped)`. The severity words of the finding lines stay English
 * in every language (`error`, `warning`: what problem matchers and scripts read); the summary is the reader's.
 */
export function summaryOf(findings: readonly Finding[], counts: FileCounts, msg: Msg = messages(undefined)): string {
  const n = (severity: Finding['severity']) => findings.filter((f) => f.severity === severity).length;
  const count = (k: number, one: string, many: string) => (k === 1 ? one : many);
  const errors = n('error');
  const warnings = n('warning');
  const parts = [
    count(errors, msg('{0} error', errors), msg('{0} errors', errors)),
    count(warnings, msg('{0} warning', warnings), msg('{0} warnings', warnings)),
  ];
  const notes = n('information');
  const hints = n('hint');
  if (notes) parts.push(count(notes, msg('{0} note', notes), msg('{0} notes', notes)));
  if (hints) parts.push(count(hints, msg('{0} hint', hints), msg('{0} hints', hints)));
  const skipped: string[] = [];
  if (counts.rendered)
    skipped.push(
      count(counts.rendered, msg('{0} chart value set rendered with helm', counts.rendered), msg('{0} chart value sets rendered with helm', counts.rendered)),
    );
  if (counts.notRendered)
    skipped.push(count(counts.notRendered, msg('{0} chart not rendered', counts.notRendered), msg('{0} charts not rendered', counts.notRendered)));
  if (counts.templates)
    skipped.push(count(counts.templates, msg('{0} template file skipped', counts.templates), msg('{0} template files skipped', counts.templates)));
  if (counts.testSuites)
    skipped.push(
      count(
        counts.testSuites,
        msg('{0} test suite file skipped: chainsaw, kuttl or Go testdata, which a test harness applies, or a Go module copied into vendor/', counts.testSuites),
        msg('{0} test suite files skipped: chainsaw, kuttl or Go testdata, which a test harness applies, or Go modules copied into vendor/', counts.testSuites),
      ),
    );
  if (counts.tooLarge)
    skipped.push(count(counts.tooLarge, msg('{0} file over 1 MB skipped', counts.tooLarge), msg('{0} files over 1 MB skipped', counts.tooLarge)));
  const sep = msg(', ');
  const files = count(counts.files, msg('{0} file', counts.files), msg('{0} files', counts.files));
  return skipped.length ? msg('{0} in {1} ({2})', parts.join(sep), files, skipped.join(sep)) : msg('{0} in {1}', parts.join(sep), files);
}

function severityLabel(severity: Finding['severity'], paint: Paint): string {
  switch (severity) {
    case 'error':
      return paint.red(paint.bold('error'));
    case 'warning':
      return paint.yellow(paint.bold('warning'));
    case 'information':
      return paint.blue('info');
    case 'hint':
      return paint.dim('hint');
  }
}
