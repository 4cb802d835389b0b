// Draws images/icon.png (128×128): a lens over three connected pods on a dark blue tile.
// Plain Node (zlib for PNG), so the icon can be redrawn anywhere: `node scripts/draw-icon.mjs`.
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const size = 128;
const samples = 4; // per axis, for anti-aliasing

const tile = [23, 50, 77];
const ring = [120, 200, 255];
const handle = [240, 180, 60];
const pod = [255, 255, 255];
const link = [120, 200, 255];

const pods = [
  [50, 40],
  [36, 66],
  [66, 68],
];
const lens = { x: 52, y: 56, r: 34, width: 7 };

function distToSegment(px, py, ax, ay, bx, by) {
  const dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function insideRoundedSquare(x, y, r) {
  const cx = Math.min(Math.max(x, r), size - r),
    cy = Math.min(Math.max(y, r), size - r);
  return Math.hypot(x - cx, y - cy) <= r;
}

/** The colour at one sample point, or null outside the tile. Later layers paint over earlier ones. */
function colourAt(x, y) {
  if (!insideRoundedSquare(x, y, 22)) return null;
  let c = tile;
  for (let i = 0; i < pods.length; i++) {
    const [ax, ay] = pods[i],
      [bx, by] = pods[(i + 1) % pods.length];
    if (distToSegment(x, y, ax, ay, bx, by) <= 2.2) c = link;
  }
  for (const [px, py] of pods) if (Math.hypot(x - px, y - py) <= 7.5) c = pod;
  if (Math.abs(Math.hypot(x - lens.x, y - lens.y) - lens.r) <= lens.width / 2) c = ring;
  const a = lens.r / Math.SQRT2 + lens.width / 2;
  if (distToSegment(x, y, lens.x + a, lens.y + a, 112, 112) <= 7) c = handle;
  return c;
}

const raw = Buffer.alloc(size * (size * 4 + 1));
for (let y = 0; y < size; y++) {
  raw[y * (size * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < size; x++) {
    let r = 0,
      g = 0,
      b = 0,
      hits = 0;
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const c = colourAt(x + (sx + 0.5) / samples, y + (sy + 0.5) / samples);
        if (!c) continue;
        r += c[0];
        g += c[1];
        b += c[2];
        hits++;
      }
    }
    const o = y * (size * 4 + 1) + 1 + x * 4;
    if (hits) {
      raw[o] = r / hits;
      raw[o + 1] = g / hits;
      raw[o + 2] = b / hits;
    }
    raw[o + 3] = Math.round((255 * hits) / (samples * samples));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8;
header[9] = 6; // 8-bit RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync(new URL('../images/', import.meta.url), { recursive: true });
writeFileSync(new URL('../images/icon.png', import.meta.url), png);
