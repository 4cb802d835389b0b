// Findings → GitHub Actions workflow commands (`::warning file=…,line=…,col=…,title=<code>::message`): annotations on
// the pull request's lines for repositories without code scanning. Escaped as the runner's toolkit does
// (@actions/core): `%`, CR and LF in messages; also `:` and `,` in properties.

import type { Finding } from './featureTypes';
import type { RangeOf } from './positions';

const commandOf: Record<Finding['severity'], string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

export function findingsToGithub(findings: readonly Finding[], rangeOf: RangeOf, summary: string): string {
  const lines = findings.map((f) => {
    const r = rangeOf(f.uri, f.span);
    const props = [
      `file=${property(f.uri.split('\\').join('/'))}`,
      `line=${r.start.line + 1}`,
      `col=${r.start.character + 1}`,
      `endLine=${r.end.line + 1}`,
      `endColumn=${r.end.character + 1}`,
      `title=${property(`kube-netlens ${f.code}`)}`,
    ];
    return `::${commandOf[f.severity]} ${props.join(',')}::${data(f.message)}`;
  });
  return [...lines, summary].join('\n') + '\n';
}

function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
