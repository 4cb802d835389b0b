// Draws the packet path from a client pod to one endpoint: hops top to bottom, grouped in bands by where they happen.
import type { PacketHop, PacketHopZone } from '../../server/src/protocol';
import { displayText, shortText } from './displayText';
import { svgEl } from './dom';
import { type Font, wrapText } from './measureText';
import { zoneTitle } from './vocabulary';

const zoneX = 12;
const hopX = 150;
const hopWidth = 240;
const explainX = hopX + hopWidth + 20;
const explainWidth = 460;
const totalWidth = explainX + explainWidth + 16;
const gap = 18;
const bandPad = 10;
const labelFont: Font = { size: 13, weight: 'bold' };
const explainFont: Font = { size: 12, weight: 'normal' };

export function drawPacketPath(hops: readonly PacketHop[], title: string): SVGSVGElement {
  const rows = hops.map((hop) => {
    const label = wrapText(shortText(hop.label, 120), hopWidth - 20, labelFont, 2);
    const explanation = wrapText(displayText(hop.explanation, 1000), explainWidth, explainFont, 6);
    const height = Math.max(38, label.length * 17 + 16, explanation.length * 16 + 12);
    return { hop, label, explanation, height };
  });
  let y = 12;
  const placed = rows.map((r, i) => {
    // A new zone opens a band: leave room for its padding above.
    if (i === 0 || rows[i - 1].hop.zone !== r.hop.zone) y += bandPad;
    const top = y;
    y += r.height + gap;
    if (i + 1 < rows.length && rows[i + 1].hop.zone !== r.hop.zone) y += bandPad;
    return { ...r, top };
  });
  const height = y + bandPad;
  const svg = svgEl('svg', {
    class: 'packet-svg', xmlns: 'http://www.w3.org/2000/svg', role: 'list', 'aria-label': title,
    viewBox: `0 0 ${totalWidth} ${height}`, width: totalWidth, height,
  });
  const defs = svgEl('defs', {}, svg);
  const marker = svgEl('marker', { id: 'kn-hop-arrow', class: 'arrow arrow-ok', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' }, defs);
  svgEl('path', { d: 'M0 0 L10 5 L0 10 z' }, marker);

  for (const band of bandsOf(placed)) {
    const g = svgEl('g', { class: `zone zone-${band.zone}` }, svg);
    svgEl('rect', { class: 'zone-band', x: 4, y: band.top - bandPad, width: totalWidth - 8, height: band.bottom - band.top + 2 * bandPad, rx: 8 }, g);
    svgEl('text', { class: 'zone-title', x: zoneX, y: band.top + 16 }, g, zoneTitle[band.zone]);
  }
  placed.forEach((r, i) => {
    const g = svgEl('g', { class: `hop zone-${r.hop.zone}`, role: 'listitem', 'aria-label': displayText(`${zoneTitle[r.hop.zone]}: ${r.hop.label}. ${r.hop.explanation}`, 1200), 'data-hop-id': r.hop.id }, svg);
    svgEl('title', {}, g, displayText(`${r.hop.label}\n${r.hop.explanation}`, 2000));
    svgEl('rect', { class: 'hop-box', x: hopX, y: r.top, width: hopWidth, height: r.height, rx: 6 }, g);
    r.label.forEach((line, j) => svgEl('text', { class: 'hop-label', x: hopX + 10, y: r.top + 21 + j * 17 }, g, line));
    r.explanation.forEach((line, j) => svgEl('text', { class: 'hop-explanation', x: explainX, y: r.top + 18 + j * 16 }, g, line));
    const next = placed[i + 1];
    if (next) {
      svgEl('path', { class: 'hop-arrow', d: `M${hopX + hopWidth / 2} ${r.top + r.height} L${hopX + hopWidth / 2} ${next.top - 1}`, 'marker-end': 'url(#kn-hop-arrow)' }, svg);
    }
  });
  return svg;
}

function bandsOf(rows: readonly { hop: PacketHop; top: number; height: number }[]): { zone: PacketHopZone; top: number; bottom: number }[] {
  const bands: { zone: PacketHopZone; top: number; bottom: number }[] = [];
  for (const r of rows) {
    const last = bands[bands.length - 1];
    if (last && last.zone === r.hop.zone) last.bottom = r.top + r.height;
    else bands.push({ zone: r.hop.zone, top: r.top, bottom: r.top + r.height });
  }
  return bands;
}
