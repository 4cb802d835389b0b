// Findings → compiler-style lines (`file:line:col: severity code: message`), grouped by file, with a summary line.

import type { FileCounts } from './analyzePaths';
import type { Finding } from './featureTypes';
import type { Paint } from './paint';
import type { RangeOf } from './positions';
import { terminalSafe } from './terminalText';

export function findingsToText(findings: readonly Finding[], rangeOf: RangeOf, counts: FileCounts, paint: Paint): string {
  const lines: string[] = [];
  let file: string | undefined;
  for (const f of findings) {
    if (file !== undefined && f.uri !== file) lines.push('');
    file = f.uri;
    const at = rangeOf(f.uri, f.span).start;
    const [first, ...more] = f.message.split('\n').map((m) => terminalSafe(m));
    lines.push(`${paint.bold(`${terminalSafe(f.uri)}:${at.line + 1}:${at.character + 1}:`)} ${severityLabel(f.severity, paint)} ${paint.dim(terminalSafe(f.code))}: ${first}`);
    for (const m of more) lines.push(`    ${m}`);
    for (const r of f.related ?? []) {
      const p = rangeOf(r.uri, r.span).start;
      lines.push(`    ${paint.bold(`${terminalSafe(r.uri)}:${p.line + 1}:${p.character + 1}:`)} ${paint.cyan('note')}: ${terminalSafe(r.message)}`);
    }
  }
  if (lines.length) lines.push('');
  lines.push(summaryOf(findings, counts));
  return lines.join('\n') + '\n';
}

/** `3 errors, 5 warnings in 12 files (2 template files skipped)` */
export function summaryOf(findings: readonly Finding[], counts: FileCounts): string {
  const n = (severity: Finding['severity']) => findings.filter((f) => f.severity === severity).length;
  const parts = [plural(n('error'), 'error'), plural(n('warning'), 'warning')];
  if (n('information')) parts.push(plural(n('information'), 'note'));
  if (n('hint')) parts.push(plural(n('hint'), 'hint'));
  const skipped: string[] = [];
  if (counts.rendered) skipped.push(`${plural(counts.rendered, 'chart value set')} rendered with helm`);
  if (counts.notRendered) skipped.push(`${plural(counts.notRendered, 'chart')} not rendered`);
  if (counts.templates) skipped.push(`${plural(counts.templates, 'template file')} skipped`);
  if (counts.testSuites) skipped.push(`${plural(counts.testSuites, 'test suite file')} skipped: chainsaw, kuttl or Go testdata, which a test harness applies`);
  if (counts.tooLarge) skipped.push(`${plural(counts.tooLarge, 'file')} over 1 MB skipped`);
  return `${parts.join(', ')} in ${plural(counts.files, 'file')}${skipped.length ? ` (${skipped.join(', ')})` : ''}`;
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

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
