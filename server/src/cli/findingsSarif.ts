// Findings → SARIF 2.1.0 (what GitHub code scanning and other CI viewers read): one rule entry per registered code.

import type { Severity } from '../model/config';
import type { Finding, RuleInfo } from './featureTypes';
import type { Range, RangeOf } from './positions';

export const sarifSchema = 'https://json.schemastore.org/sarif-2.1.0.json';

type SarifLevel = 'error' | 'warning' | 'note';

export function findingsToSarif(findings: readonly Finding[], rangeOf: RangeOf, rules: readonly RuleInfo[], version: string): string {
  const ruleIndex = new Map(rules.map((r, i) => [r.code, i]));
  const location = (uri: string, range: Range) => ({
    physicalLocation: { artifactLocation: { uri: artifactUri(uri) }, region: regionOf(range) },
  });
  const results = findings.map((f) => {
    const index = ruleIndex.get(f.code);
    return {
      ruleId: f.code,
      ...(index !== undefined && { ruleIndex: index }),
      level: levelOf(f.severity),
      message: { text: f.message },
      locations: [location(f.uri, rangeOf(f.uri, f.span))],
      ...(f.related?.length && {
        relatedLocations: f.related.map((r, id) => ({ id, ...location(r.uri, rangeOf(r.uri, r.span)), message: { text: r.message } })),
      }),
    };
  });
  const sarif = {
    $schema: sarifSchema,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kube-netlens',
            version,
            rules: rules.map((r) => ({
              id: r.code,
              shortDescription: { text: r.title },
              fullDescription: { text: r.description },
              helpUri: `docs/rules.md#${r.code}`,
              defaultConfiguration: { level: levelOf(r.defaultSeverity) },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}

function levelOf(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/** SARIF regions are 1-based; an empty span still covers its start column. */
function regionOf(range: Range) {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/** A relative URI reference with forward slashes, percent-encoded where a path holds spaces or `#`. */
function artifactUri(file: string): string {
  const path = file.split(/[\\/]/).map(encodeURIComponent).join('/');
  return path.startsWith('/') ? `file://${path}` : path;
}
