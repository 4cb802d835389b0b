// `check --baseline FILE` and `check --write-baseline FILE`: the findings a team has accepted for now, recorded by
// identity (features/findingIdentity.ts), so CI fails only on new ones while the backlog burns down. The file is JSON
// sorted by fingerprint (a review shows what changed); it holds no line numbers and no messages, so it changes only
// when findings come or go.

import { readFileSync, writeFileSync } from 'node:fs';
import type { FindingIdentity } from '../features/findingIdentity';
import type { IdentifiedResult } from './findingsSarif';
import { messages, type Msg } from '../l10n/l10n';

export const baselineVersion = 1;

export interface BaselineEntry {
  readonly fingerprint: string;
  readonly identity: FindingIdentity;
}

export interface Baseline {
  readonly entries: readonly BaselineEntry[];
}

/** What a baseline does to one run's findings. */
export interface BaselineSplit {
  /** Findings the baseline does not know: reported, and they decide the exit code. */
  readonly fresh: readonly IdentifiedResult[];
  /** Findings the baseline knows: held back. */
  readonly known: number;
  /** Entries no finding of this run matches: fixed (or changed), for `--write-baseline` to drop. */
  readonly stale: readonly BaselineEntry[];
}

/** The baseline in `file`, or why it cannot be used (a message for stderr; the command exits 2). */
export function readBaseline(file: string, msg: Msg = messages(undefined)): Baseline | { readonly error: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      error: msg(
        'cannot read the baseline {0}: {1}',
        file,
        code === 'ENOENT'
          ? msg('no such file (write one with --write-baseline FILE)')
          : code === 'EISDIR'
            ? msg('it is a folder')
            : String((err as Error).message),
      ),
    };
  }
  return parseBaseline(text, file, msg);
}

export function parseBaseline(text: string, file: string, msg: Msg = messages(undefined)): Baseline | { readonly error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { error: msg('the baseline {0} is not JSON: {1}', file, (err as Error).message) };
  }
  const doc = data as { version?: unknown; findings?: unknown };
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { error: msg('the baseline {0} is not a kube-netlens baseline (an object with "version" and "findings")', file) };
  if (doc.version !== baselineVersion)
    return { error: msg('the baseline {0} has version {1}; this kube-netlens reads version {2}', file, String(JSON.stringify(doc.version)), baselineVersion) };
  if (!Array.isArray(doc.findings)) return { error: msg('the baseline {0} has no "findings" list', file) };
  const entries: BaselineEntry[] = [];
  for (const [i, e] of (doc.findings as unknown[]).entries()) {
    const entry = e as { fingerprint?: unknown; identity?: unknown };
    if (typeof entry !== 'object' || entry === null || typeof entry.fingerprint !== 'string' || !/^[0-9a-f]{32}$/.test(entry.fingerprint)) {
      return { error: msg('the baseline {0}: findings[{1}] has no fingerprint (32 hex digits)', file, i) };
    }
    const identity = entry.identity as FindingIdentity | undefined;
    if (typeof identity !== 'object' || identity === null || typeof identity.rule !== 'string')
      return { error: msg('the baseline {0}: findings[{1}] has no identity with a rule', file, i) };
    entries.push({ fingerprint: entry.fingerprint, identity });
  }
  return { entries };
}

/** A result's identities: its own and, for a finding several renders share, those of the other builds. */
export function identitiesOf(f: IdentifiedResult): readonly BaselineEntry[] {
  return [{ fingerprint: f.fingerprint, identity: f.identity }, ...(f.others ?? [])];
}

/**
 * A finding is known when the baseline knows any of its identities: a finding on a base several builds share stays
 * known when an overlay is added (the mistake to fix is the same line); an entry is stale when no identity of any
 * finding matches it.
 */
export function splitByBaseline(findings: readonly IdentifiedResult[], baseline: Baseline): BaselineSplit {
  const known = new Set(baseline.entries.map((e) => e.fingerprint));
  const seen = new Set(findings.flatMap((f) => identitiesOf(f).map((e) => e.fingerprint)));
  const fresh = findings.filter((f) => !identitiesOf(f).some((e) => known.has(e.fingerprint)));
  return { fresh, known: findings.length - fresh.length, stale: baseline.entries.filter((e) => !seen.has(e.fingerprint)) };
}

/** The baseline file's text for these findings: sorted by fingerprint, one entry per fingerprint (every build's). */
export function baselineText(findings: readonly IdentifiedResult[]): string {
  const byFingerprint = new Map<string, BaselineEntry>();
  for (const f of findings) for (const e of identitiesOf(f)) byFingerprint.set(e.fingerprint, e);
  const entries = [...byFingerprint.values()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  return JSON.stringify({ version: baselineVersion, tool: 'kube-netlens', findings: entries }, null, 2) + '\n';
}

/** Writes the baseline; an error message when the file cannot be written. */
export function writeBaseline(file: string, findings: readonly IdentifiedResult[], msg: Msg = messages(undefined)): string | undefined {
  try {
    writeFileSync(file, baselineText(findings));
    return undefined;
  } catch (err) {
    return msg('cannot write the baseline {0}: {1}', file, (err as Error).message);
  }
}

/** `Service shop/web spec.selector.app = "wbe"`: an entry for a person, one line. */
export function describeEntry(e: BaselineEntry, msg: Msg = messages(undefined)): string {
  const id = e.identity;
  const where = id.object ? `${id.object.kind} ${id.object.namespace}/${id.object.name}` : (id.file ?? msg('a file'));
  const what = [
    typeof id.build === 'string' ? msg(' in {0}', id.build) : '',
    id.path ? msg(' at {0}', id.path) : '',
    id.value ? msg(' ({0})', JSON.stringify(id.value)) : '',
  ].join('');
  return msg('{0} on {1}{2}', id.rule, where, what);
}
