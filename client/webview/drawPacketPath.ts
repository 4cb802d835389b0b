// Draws the packet path from a client pod to one endpoint: hops top to bottom, grouped in bands by where they happen.
// Wide panels put each hop's explanation beside its box; narrow ones put it under the box, so nothing is cut off.
import type { PacketHop, PacketHopZone } from '../../server/src/protocol';
import { displayText, shortText } from './displayText';
import { svgEl } from './dom';
import { type Font, wrapText } from './measureText';
import { zoneTitle } from './vocabulary';

const zoneX = 12;
const gap = 18;
const bandPad = 10;
const labelFont: Font = { size: 13, weight: 'bold' };
const explainFont: Font = { size: 12, weight: 'normal' };
/** The side-by-side layout: zone titles, hop boxes, explanations. */
const wide = { hopX: 150, hopWidth: 240, explainWidth: 460 };
export const packetPathWideWidth = wide.hopX + wide.hopWidth + 20 + wide.explainWidth + 16;
const minWidth = 300;

export function drawPacketPath(hops: readonly PacketHop[], title: string, available = packetPathWideWidth): SVGSVGElement {
  const stacked = available < packetPathWideWidth;
  const totalWidth = stacked ? Math.max(minWidth, Math.floor(available)) : packetPathWideWidth;
  // Stacked: the zone title on its own line, the box under it, the explanation under the box.
  const hopX = stacked ? zoneX + 8 : wide.hopX;
  const hopWidth = stacked ? Math.min(wide.hopWidth, totalWidth - hopX - 16) : wide.hopWidth;
  const explainX = stacked ? hopX : wide.hopX + wide.hopWidth + 20;
  const explainWidth = stacked ? totalWidth - hopX - 16 : wide.explainWidth;
  const rows = hops.map((hop) => {
    const label = wrapText(shortText(hop.label, 120), hopWidth - 20, labelFont, 2);
    const explanation = wrapText(displayText(hop.explanation, 1000), explainWidth, explainFont, stacked ? 10 : 6);
    const boxHeight = Math.max(38, label.length * 17 + 16);
    const height = stacked ? boxHeight + 6 + explanation.length * 16 : Math.max(boxHeight, explanation.length * 16 + 12);
    return { hop, label, explanation, boxHeight: stacked ? boxHeight : height, height };
  });
  const zoneHeader = stacked ? 22 : 0;
  let y = 12;
  const placed = rows.map((r, i) => {
    // A new zone opens a band: leave room for its padding (and, stacked, its title) above.
    if (i === 0 || rows[i - 1].hop.zone !== r.hop.zone) y += bandPad + zoneHeader;
    const top = y;
    y += r.height + gap;
    if (i + 1 < rows.length && rows[i + 1].hop.zone !== r.hop.zone) y += bandPad;
    return { ...r, top };
  });
  const height = y + bandPad;
  const svg = svgEl('svg', {
    class: `packet-svg${stacked ? ' packet-stacked' : ''}`,
    xmlns: 'http://www.w3.org/2000/svg',
    role: 'list',
    'aria-label': title,
    viewBox: `0 0 ${totalWidth} ${height}`,
    width: totalWidth,
    height,
  });
  const defs = svgEl('defs', {}, svg);
  const marker = svgEl(
    'marker',
    { id: 'kn-hop-arrow', class: 'arrow arrow-ok', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
    defs,
  );
  svgEl('path', { d: 'M0 0 L10 5 L0 10 z' }, marker);

  for (const band of bandsOf(placed)) {
    const g = svgEl('g', { class: `zone zone-${band.zone}` }, svg);
    const top = band.top - bandPad - zoneHeader;
    svgEl('rect', { class: 'zone-band', x: 4, y: top, width: totalWidth - 8, height: band.bottom - top + bandPad, rx: 8 }, g);
    svgEl('text', { class: 'zone-title', x: zoneX, y: stacked ? top + 18 : band.top + 16 }, g, zoneTitle[band.zone]);
  }
  placed.forEach((r, i) => {
    const g = svgEl(
      'g',
      {
        class: `hop zone-${r.hop.zone}${r.hop.stop ? ' hop-stop' : ''}`,
        role: 'listitem',
        'aria-label': displayText(`${zoneTitle[r.hop.zone]}: ${r.hop.label}. ${r.hop.explanation}`, 1200),
        'data-hop-id': r.hop.id,
      },
      svg,
    );
    svgEl('title', {}, g, displayText(`${r.hop.label}\n${r.hop.explanation}`, 2000));
    svgEl('rect', { class: 'hop-box', x: hopX, y: r.top, width: hopWidth, height: r.boxHeight, rx: 6 }, g);
    r.label.forEach((line, j) => svgEl('text', { class: 'hop-label', x: hopX + 10, y: r.top + 21 + j * 17 }, g, line));
    const explainTop = stacked ? r.top + r.boxHeight + 6 : r.top;
    r.explanation.forEach((line, j) => svgEl('text', { class: 'hop-explanation', x: explainX, y: explainTop + (stacked ? 12 : 18) + j * 16 }, g, line));
    const next = placed[i + 1];
    if (next) {
      const x = stacked ? hopX + 14 : hopX + hopWidth / 2;
      svgEl(
        'path',
        { class: 'hop-arrow', d: `M${x} ${stacked ? r.top + r.height : r.top + r.boxHeight} L${x} ${next.top - 1}`, 'marker-end': 'url(#kn-hop-arrow)' },
        svg,
      );
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
