// What a node box shows, line by line, and how big it must be; the full text lives in the detail pane and list view.
import type { TraceNode } from '../../server/src/protocol';
import { displayText, shortText } from './displayText';
import { type Font, fitWidth, textWidth, wrapText } from './measureText';
import { kindCaption, statusMarker } from './vocabulary';
import { fill, words } from './words';

export type CardLineRole =
  'caption' | 'label' | 'pods' | 'detail' | 'reach-allowed' | 'reach-denied' | 'reach-unknown' | 'finding-error' | 'finding-warning' | 'more';

export interface CardLine {
  readonly role: CardLineRole;
  readonly text: string;
  readonly font: Font;
  readonly height: number;
}

export interface NodeCard {
  readonly lines: readonly CardLine[];
  readonly width: number;
  readonly height: number;
}

export const cardPadding = 10;
const minWidth = 140;
/** Tight boxes are as wide as their text, down to this. */
const tightMinWidth = 80;
const maxTextWidth = 210;
/** The smallest text of the drawing: at the view's lowest default zoom (0.85) it is still over 10 px on screen. */
const small: Font = { size: 12, weight: 'normal' };
const body: Font = { size: 12, weight: 'normal' };
const strong: Font = { size: 14, weight: 'bold' };
const verdict: Font = { size: 12, weight: 'bold' };

/**
 * How much a box shows: `full`, one line of detail; `compact`, without it (the detail pane and the tooltip keep it),
 * for a panel that cannot show the whole path otherwise; `tight`, also as wide as its text and with each finding on
 * one line, for the smallest panels.
 */
export type CardDensity = 'full' | 'compact' | 'tight';

export function nodeCard(node: TraceNode, density: CardDensity = 'full'): NodeCard {
  const compact = density !== 'full';
  const lines: CardLine[] = [];
  const add = (role: CardLineRole, text: string, font: Font, height: number) => lines.push({ role, text, font, height });
  add('caption', `${statusMarker[node.status].symbol} ${kindCaption[node.kind]}`, small, 16);
  // The title names the object: a long name (a full DNS name) wraps onto a second line rather than losing its end.
  for (const t of wrapName(shortText(node.label, 120), maxTextWidth, strong)) add('label', t, strong, 19);
  const pods = podsLine(node);
  if (pods) add('pods', fitWidth(pods, maxTextWidth, body), body, 17);
  // A trace for a chosen client: whether its connection passes here comes first, in every density (it is what was asked).
  if (node.reach) add(`reach-${node.reach.verdict}`, reachLine(node), verdict, 17);
  // One fact on the box; the rest is in the detail pane, a click away (its tooltip lists them too). With a client, the
  // first detail lines are the verdict's sentence and its rules (indented), which the reach line says in short.
  const facts = node.reach ? node.detail.slice(1).filter((d) => !d.startsWith('  ')) : node.detail;
  for (const d of facts.slice(0, compact ? 0 : 1)) add('detail', fitWidth(shortText(d, 120), maxTextWidth, small), small, 16);
  // Findings are what the person came for: their text is on the box, not only in a tooltip.
  for (const f of node.findings.slice(0, 2)) {
    const role = f.severity === 'error' ? 'finding-error' : 'finding-warning';
    const mark = f.severity === 'error' ? '✖' : '⚠';
    wrapText(`${mark} ${displayText(f.message, 400)}`, maxTextWidth, body, density === 'tight' ? 1 : 3).forEach((t) => add(role, t, body, 16));
  }
  if (node.findings.length > 2) add('more', fill(words.box.moreFindings, node.findings.length - 2), small, 15);
  const width = Math.max(density === 'tight' ? tightMinWidth : minWidth, ...lines.map((l) => textWidth(l.text, l.font))) + 2 * cardPadding;
  const height = lines.reduce((h, l) => h + l.height, 0) + 2 * cardPadding - 4;
  return { lines, width: Math.ceil(width), height: Math.ceil(height) };
}

/** `✖ client blocked by api-in`, short enough for the box; the sentence with the rules is in the detail pane. */
export function reachLine(node: TraceNode): string {
  const r = node.reach!;
  if (node.kind === 'client')
    return r.verdict === 'allowed' ? words.box.reachesSome : r.verdict === 'denied' ? words.box.blockedEverywhere : words.box.reachUnknown;
  // `ingress: shop/api-in rule 1 (policies.yaml line 12)` → `api-in rule 1`; a policy that admits none of it → `api-in`.
  // The server words these in the reader's language (`ingress：shop/api-in 规则 1（policies.yaml 第 12 行）`): the
  // policy's name (no spaces) and a rule number after one word are kept, whatever the words.
  const names = r.because.map((b) => {
    const rest = b.replace(/(?: \(.*\)|（.*）)$/, '').replace(/^(ingress|egress)(?:: |：)[^/]+\//, '');
    const m = /^(\S+)(?: (\S+ \d+)$)?/.exec(rest);
    return m ? (m[2] ? `${m[1]} ${m[2]}` : m[1]) : rest;
  });
  const by = names.length === 1 ? names[0] : '';
  const text =
    r.verdict === 'allowed'
      ? by
        ? fill(words.box.admittedBy, by)
        : words.box.admitted
      : r.verdict === 'denied'
        ? by
          ? fill(words.box.blockedBy, by)
          : words.box.blocked
        : words.box.unknown;
  return fitWidth(text, maxTextWidth, verdict);
}

/** A name on at most two lines, broken after a dot, a space or a hyphen; what does not fit ends in an ellipsis. */
function wrapName(text: string, maxWidth: number, font: Font): string[] {
  if (textWidth(text, font) <= maxWidth) return [text];
  const pieces = text.split(/(?<=[.\s-])/);
  let first = '';
  let i = 0;
  while (i < pieces.length && textWidth(first + pieces[i], font) <= maxWidth) first += pieces[i++];
  if (!first) return [fitWidth(text, maxWidth, font)];
  return [first.trimEnd(), fitWidth(pieces.slice(i).join(''), maxWidth, font)];
}

/** Endpoint groups are drawn as one box with a pod count; StatefulSet pods keep their stable names (semantics §2.3). */
export function podsLine(node: TraceNode): string | undefined {
  if (!node.pods) return undefined;
  const { count, names } = node.pods;
  const n = count ?? names.length;
  const podCount = fill(n === 1 ? words.box.pod : words.box.pods, n);
  const gate = node.pods.readinessGated ? words.box.readyOnly : words.box.notReadyToo;
  if (!names.length) return `${podCount} · ${gate}`;
  const shown = names.length <= 3 ? names.map((s) => shortText(s, 30)).join(', ') : `${shortText(names[0], 30)} … ${shortText(names[names.length - 1], 30)}`;
  return `${podCount}: ${shown} · ${gate}`;
}
