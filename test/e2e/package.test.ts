// The VSIX a user installs: only the allow-listed files (bundles, grammar, manifest, docs, icon), under 2 MB,
// and every file the manifest points at is inside it.

import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { before, describe, it } from 'node:test';
import { ensureVsix } from '../../scripts/codeServer.mjs';

const maxBytes = 2 * 1024 * 1024;

/** What `.vscodeignore` lets through, as vsce names it inside the archive (it renames README, CHANGELOG, LICENSE). */
const allowed: readonly RegExp[] = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\/images\/icon\.png$/,
  /^extension\/docs\/rules\.md$/,
  /^extension\/schemas\/kube-netlens\.schema\.json$/,
  /^extension\/syntaxes\/[^/]+\.json$/,
  // the command titles and setting descriptions per display language, and the client's message bundles (docs/localization.md)
  /^extension\/package\.nls(\.[a-z-]+)?\.json$/,
  /^extension\/l10n\/bundle\.l10n\.[a-z-]+\.json$/,
  /^extension\/dist\/(?!.*\.map$).+\.(js|css)$/,
];

interface Entry {
  readonly name: string;
  readonly data: () => Buffer;
}

/** The entries of a zip archive, read from its central directory. */
function zipEntries(zip: Buffer): readonly Entry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'not a zip archive');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(p), 0x02014b50, 'corrupt central directory');
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    entries.push({
      name,
      data: () => {
        // The local header repeats the name and has its own extra field: the data starts after both.
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const raw = zip.subarray(start, start + compressedSize);
        return method === 0 ? raw : inflateRawSync(raw);
      },
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

describe('the packaged VSIX', () => {
  let vsix: string;
  let entries: readonly Entry[];
  before(
    async () => {
      vsix = await ensureVsix();
      entries = zipEntries(readFileSync(vsix));
    },
    { timeout: 180_000 },
  );

  it(`stays under ${maxBytes / 1024 / 1024} MB`, () => {
    const size = statSync(vsix).size;
    assert.ok(size < maxBytes, `${vsix} is ${(size / 1024 / 1024).toFixed(2)} MB`);
  });

  it('holds only allow-listed files', () => {
    const strays = entries.map((e) => e.name).filter((n) => !n.endsWith('/') && !allowed.some((re) => re.test(n)));
    assert.deepEqual(strays, [], 'files outside the .vscodeignore allow-list');
  });

  it('holds every file the manifest points at', () => {
    const names = new Set(entries.map((e) => e.name));
    const manifestEntry = entries.find((e) => e.name === 'extension/package.json');
    assert.ok(manifestEntry, 'no package.json in the VSIX');
    const manifest = JSON.parse(manifestEntry.data().toString('utf8')) as {
      main: string;
      icon: string;
      contributes?: { grammars?: ReadonlyArray<{ path: string }> };
    };
    const wanted = [manifest.main, manifest.icon, 'dist/server.js', ...(manifest.contributes?.grammars ?? []).map((g) => g.path)];
    for (const file of wanted) {
      const inside = `extension/${file.replace(/^\.\//, '')}`;
      assert.ok(names.has(inside), `${inside} is missing from the VSIX`);
    }
    assert.ok(!entries.some((e) => e.name.includes('node_modules/')), 'node_modules must not be packaged: esbuild bundles everything');
  });
});
