// `kube-netlens check`: every finding in the given files, as text, JSON or SARIF; the exit code follows --fail-on.
// With --baseline FILE only the findings the baseline does not know are reported and counted (cli/baseline.ts).

import { analyzePaths } from './analyzePaths';
import { withConfigFile } from './configFile';
import { describeEntry, readBaseline, splitByBaseline, writeBaseline, type Baseline, type BaselineSplit } from './baseline';
import { checkWithCharts } from './chartFindings';
import { helmOptionError } from './helmCharts';
import { isCollectError } from './collectFiles';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import type { Finding } from './featureTypes';
import { findingsToJson } from './findingsJson';
import { defaultHelpUriFor, findingsToSarif } from './findingsSarif';
import { findingsToGithub } from './findingsGithub';
import { findingsToText, summaryOf } from './findingsText';
import { messages, type Msg } from '../l10n/l10n';
import { identify } from './identify';
import { ignoredSummary, withSuppressions } from './ignores';
import { colourWanted, paintFor, type Paint } from './paint';
import type { CheckRequest, FailOn } from './parseArgs';
import { rangesIn } from './positions';
import { terminalOutput } from './terminalText';
import { codeCatalogIn } from '../features/ruleCatalog';
import { createHash } from 'node:crypto';
import { terminalProgress } from './progress';
import { cliVersion } from './version';

export function checkCommand(asked: CheckRequest, terminal: Terminal): CommandResult {
  const configured = withConfigFile(asked);
  if ('error' in configured) return failure(configured.error);
  const request = configured.request;
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const msg = messages(request.locale);
  let baseline: Baseline | undefined;
  if (request.baseline !== undefined) {
    const read = readBaseline(request.baseline, msg);
    if ('error' in read) return failure(read.error);
    baseline = read;
  }
  const progress = terminal.progress && terminalProgress(terminal.progress);
  const loaded = analyzePaths(request, progress);
  if (isCollectError(loaded)) return failure(loaded.error);
  let checked;
  try {
    checked = checkWithCharts(loaded, request, terminal.env, progress);
  } finally {
    progress?.clear();
  }
  const suppressed = withSuppressions(checked.findings, checked.analysis, request.noIgnores === true, configured.ignores);
  const findings = sortFindings(suppressed.findings);
  const sources = loaded.sources;
  const rangeOf = rangesIn(configured.source && !sources.some((s) => s.uri === configured.source!.uri) ? [...sources, configured.source] : sources);
  const needIdentity = request.format !== 'text' || baseline !== undefined || request.writeBaseline !== undefined;
  // identities are computed only where something uses them (plain text output has no use for them)
  const identified = needIdentity ? identify(findings, checked.analysis, sources) : [];
  const ignored =
    request.format === 'text'
      ? []
      : identify(
          suppressed.ignored.map((i) => i.finding),
          checked.analysis,
          sources,
        ).map((r, i) => ({ ...r, suppression: suppressed.ignored[i] }));
  const split: BaselineSplit | undefined = baseline && splitByBaseline(identified, baseline);
  const reported = split ? split.fresh : identified;
  const notes = [...loaded.notes];
  const ignoredNote = ignoredSummary(suppressed.ignored, msg);
  if (ignoredNote && request.format !== 'text' && request.format !== 'github') notes.push(ignoredNote);
  if (split && request.baseline !== undefined) notes.push(...baselineNotes(split, request.baseline, request.writeBaseline === request.baseline, msg));
  if (request.writeBaseline !== undefined) {
    const previous = request.writeBaseline === request.baseline ? baseline : readIfThere(request.writeBaseline);
    const error = writeBaseline(request.writeBaseline, identified, msg);
    if (error) return failure(error, notes);
    const dropped = previous ? splitByBaseline(identified, previous).stale.length : 0;
    const wrote =
      identified.length === 1
        ? msg('wrote {0} finding to the baseline {1}', identified.length, request.writeBaseline)
        : msg('wrote {0} findings to the baseline {1}', identified.length, request.writeBaseline);
    notes.push(
      dropped === 0
        ? wrote
        : dropped === 1
          ? msg('{0} (dropped {1} entry no finding matches any more)', wrote, dropped)
          : msg('{0} (dropped {1} entries no finding matches any more)', wrote, dropped),
    );
  }
  const shown = needIdentity ? reported.map((r) => r.finding) : findings;
  const stdout =
    request.format === 'json'
      ? findingsToJson(reported, rangeOf, {
          ignored: ignored.map((i) => ({
            file: i.finding.uri,
            range: rangeOf(i.finding.uri, i.finding.span),
            code: i.finding.code,
            message: i.finding.message,
            reason: i.suppression.reason,
            by: i.suppression.by,
            identity: i.identity,
            fingerprint: i.fingerprint,
          })),
          ...(split && { baseline: { file: request.baseline, known: split.known, stale: split.stale } }),
        })
      : request.format === 'github'
        ? findingsToGithub(shown, rangeOf, [summaryOf(shown, checked.counts, messages(request.locale)), ignoredNote].filter(Boolean).join('\n'))
        : request.format === 'sarif'
          ? findingsToSarif([...reported, ...ignored], rangeOf, {
              rules: codeCatalogIn(request.locale, sha256),
              version: cliVersion,
              helpUri: request.helpUri ?? defaultHelpUriFor(request.locale),
              ...(request.locale && request.locale !== 'en' && { language: request.locale, english: englishMessages(request, terminal, configured.ignores) }),
            })
          : textOutput(
              terminal,
              (paint) => findingsToText(shown, rangeOf, checked.counts, paint, messages(request.locale)) + (ignoredNote ? `${paint.dim(ignoredNote)}\n` : ''),
            );
  // a run that records the baseline accepts what it records
  const fails = request.writeBaseline === undefined && shown.some((f) => reaches(f.severity, request.failOn));
  return { exitCode: fails ? 1 : 0, stdout, stderr: notes.map(note) };
}

function baselineNotes(split: BaselineSplit, file: string, rewritten: boolean, msg: Msg): string[] {
  const known = split.known === 1 ? msg('{0} known finding', split.known) : msg('{0} known findings', split.known);
  const fresh = split.fresh.length === 1 ? msg('{0} new finding', split.fresh.length) : msg('{0} new findings', split.fresh.length);
  const out = [msg('{0} held back by the baseline {1}; {2} reported', known, file, fresh)];
  if (split.stale.length) {
    const n = split.stale.length;
    out.push(
      rewritten
        ? n === 1
          ? msg('{0} baseline entry no finding matches any more (fixed, or changed); dropped from the baseline:', n)
          : msg('{0} baseline entries no finding matches any more (fixed, or changed); dropped from the baseline:', n)
        : n === 1
          ? msg('{0} baseline entry no finding matches any more (fixed, or changed); --write-baseline {1} drops it:', n, file)
          : msg('{0} baseline entries no finding matches any more (fixed, or changed); --write-baseline {1} drops them:', n, file),
    );
    for (const e of split.stale.slice(0, 50)) out.push(`  ${describeEntry(e, msg)}`);
    if (split.stale.length > 50) out.push(`  ${msg('and {0} more', split.stale.length - 50)}`);
  }
  return out;
}

/** An existing baseline at the path --write-baseline replaces, to say how many entries it drops; none if unreadable. */
function readIfThere(file: string): Baseline | undefined {
  const read = readBaseline(file);
  return 'error' in read ? undefined : read;
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

/**
 * For SARIF in another language: the English text of each result and of its related places, by fingerprint, from a
 * second analysis in English (only this format in another language pays for it). SARIF 2.1.0 declares one language
 * per run (`run.language`); the English goes in each result's property bag, so a viewer without the language still
 * reads it, and rules keep their English descriptions.
 */
function englishMessages(request: CheckRequest, terminal: Terminal, ignores: Parameters<typeof withSuppressions>[3]): ReadonlyMap<string, readonly Finding[]> {
  const english = { ...request, locale: undefined };
  const loaded = analyzePaths(english);
  const out = new Map<string, Finding[]>();
  if (isCollectError(loaded)) return out;
  const checked = checkWithCharts(loaded, english, terminal.env);
  const suppressed = withSuppressions(checked.findings, checked.analysis, request.noIgnores === true, ignores);
  const all = [...sortFindings(suppressed.findings), ...suppressed.ignored.map((i) => i.finding)];
  for (const r of identify(all, checked.analysis, loaded.sources)) out.set(r.fingerprint, [...(out.get(r.fingerprint) ?? []), r.finding]);
  return out;
}

function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) =>
    a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
