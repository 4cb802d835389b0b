// Findings → SARIF 2.1.0 (what GitHub code scanning and other CI viewers read): one run per invocation, every code a
// finding may carry declared as a rule (whether or not it has results), each result with the fingerprint of its
// identity (features/findingIdentity.ts) and each rule with an absolute help link.

import type { Severity } from '../model/config';
import { repository } from '../../../package.json';
import type { FindingIdentity } from '../features/findingIdentity';
import type { Finding, LocalizedRuleInfo } from './featureTypes';
import type { Range, RangeOf } from './positions';

export const sarifSchema = 'https://json.schemastore.org/sarif-2.1.0.json';

/** The key of `partialFingerprints`; a new version of the identity would get a new key. */
export const fingerprintKey = 'kubeNetlensIdentity/v1';

/** The rules page `helpUri`s point into unless `--help-uri` names another: docs/rules.md in the project's repository. */
export const defaultHelpUri = `${repository.url.replace(/\.git$/, '')}/blob/main/docs/rules.md`;

/** The rule reference in the messages' language: docs/rules.zh-cn.md for Chinese (the same anchors). */
export function defaultHelpUriFor(locale: string | undefined): string {
  return locale === 'zh-cn' ? defaultHelpUri.replace(/rules\.md$/, 'rules.zh-cn.md') : defaultHelpUri;
}

type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifOptions {
  /** The codes' metadata, in the messages' language (features/ruleCatalog.ts `codeCatalogIn`), with the English beside. */
  readonly rules: readonly LocalizedRuleInfo[];
  readonly version: string;
  /** The page documenting the codes; `#<code>` is appended. */
  readonly helpUri: string;
  /** The language of the messages when not English (`run.language`, a BCP 47 tag). */
  readonly language?: string;
  /** With `language`: the English findings by fingerprint, whose texts go in each result's property bag. */
  readonly english?: ReadonlyMap<string, readonly Finding[]>;
}

export interface IdentifiedResult {
  readonly finding: Finding;
  readonly identity: FindingIdentity;
  readonly fingerprint: string;
  /**
   * A finding several renders share: the identities of the other builds or value sets, after `identity` (the first by
   * build name). The baseline records them all and knows the finding when it knows any.
   */
  readonly others?: readonly { readonly identity: FindingIdentity; readonly fingerprint: string }[];
  /** Set on a finding a suppression ignores: SARIF carries it as an accepted in-source suppression with the reason. */
  readonly suppression?: { readonly reason: string; readonly by: string };
}

export function findingsToSarif(findings: readonly IdentifiedResult[], rangeOf: RangeOf, options: SarifOptions): string {
  const rules = [...options.rules];
  // a code outside the catalog still gets a rule entry, so every result has its rule
  for (const { finding } of findings) {
    if (!rules.some((r) => r.code === finding.code))
      rules.push({ code: finding.code, title: finding.code, description: finding.code, defaultSeverity: finding.severity, documented: 'other' });
  }
  const ruleIndex = new Map(rules.map((r, i) => [r.code, i]));
  const location = (uri: string, range: Range) => ({
    physicalLocation: { artifactLocation: { uri: artifactUri(uri) }, region: regionOf(range) },
  });
  const taken = new Map<string, number>();
  const englishOf = (fingerprint: string): Finding | undefined => {
    const n = taken.get(fingerprint) ?? 0;
    taken.set(fingerprint, n + 1);
    return options.english?.get(fingerprint)?.[n];
  };
  const results = findings
    .map(({ finding: f, fingerprint, suppression }) => ({ f, fingerprint, suppression, en: options.language ? englishOf(fingerprint) : undefined }))
    .map(({ f, fingerprint, suppression, en }) => ({
      ruleId: f.code,
      ruleIndex: ruleIndex.get(f.code)!,
      level: levelOf(f.severity),
      message: { text: f.message },
      locations: [location(f.uri, rangeOf(f.uri, f.span))],
      partialFingerprints: { [fingerprintKey]: fingerprint },
      ...(suppression && { suppressions: [{ kind: 'inSource', status: 'accepted', justification: `${suppression.reason} (${suppression.by})` }] }),
      ...(f.related?.length && {
        relatedLocations: f.related.map((r, id) => ({
          id,
          ...location(r.uri, rangeOf(r.uri, r.span)),
          message: { text: r.message, ...(en?.related?.[id] && { properties: { englishText: en.related[id].message } }) },
        })),
      }),
      ...(en && { properties: { englishMessage: en.message } }),
    }));
  const sarif = {
    $schema: sarifSchema,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kube-netlens',
            version: options.version,
            informationUri: repository.url.replace(/\.git$/, ''),
            rules: rules.map((r) => ({
              id: r.code,
              shortDescription: { text: r.title },
              fullDescription: { text: r.description },
              helpUri: `${options.helpUri}#${r.code}`,
              defaultConfiguration: { level: levelOf(r.defaultSeverity) },
              ...(r.english && { properties: { englishShortDescription: r.english.title, englishFullDescription: r.english.description } }),
            })),
          },
        },
        automationDetails: { id: 'kube-netlens/check/' },
        ...(options.language && { language: sarifLanguage(options.language) }),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}

/** `zh-cn` → `zh-CN`: the region subtag in capitals, as BCP 47 writes it (SARIF 2.1.0 §3.14.13). */
function sarifLanguage(locale: string): string {
  const [lang, ...rest] = locale.split('-');
  return [lang, ...rest.map((s) => (s.length === 2 ? s.toUpperCase() : s))].join('-');
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
