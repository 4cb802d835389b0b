// One spelling per file: every spelling of a file URI (Node's pathToFileURL, full percent-encoding, raw characters,
// lower-case hex) becomes VS Code's, and the canonical form is a fixed point.

import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalUri, fileUri } from '../../server/src/workspace/uri';

const fullyEncoded = (path: string) =>
  `file://${path
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/')}`;

describe('canonical file URIs', () => {
  it('spells a path as VS Code does', () => {
    assert.equal(fileUri("/tmp/a b+c@d'e!f.yaml"), 'file:///tmp/a%20b%2Bc%40d%27e%21f.yaml');
    assert.equal(fileUri('/w/ünï/(x)~_.-*,;=&$#?.yml'), 'file:///w/%C3%BCn%C3%AF/%28x%29~_.-%2A%2C%3B%3D%26%24%23%3F.yml');
    assert.equal(fileUri('C:\\Users\\a b\\k.yaml'), 'file:///c%3A/Users/a%20b/k.yaml');
    assert.equal(canonicalUri('file:///c:/Users/x.yaml'), 'file:///c%3A/Users/x.yaml');
    assert.equal(canonicalUri('untitled:Untitled-1'), 'untitled:Untitled-1');
    assert.equal(canonicalUri('file:///a/%zz%2.yaml'), 'file:///a/%25zz%252.yaml', 'a malformed escape is kept as text');
  });

  it('gives every spelling of one path the same URI, which is a fixed point and names the same path', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9 +@'!()*,;=&$%#?~._\-üé中\u202e]{1,12}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const spellings = [pathToFileURL(path).href, fullyEncoded(path), fullyEncoded(path).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())];
        if (!/[#?%]/.test(path)) spellings.push(`file://${path}`);
        const canonical = fileUri(path);
        for (const s of spellings) assert.equal(canonicalUri(s), canonical, s);
        assert.equal(canonicalUri(canonical), canonical);
        assert.equal(fileURLToPath(canonical), path);
      }),
      { seed: 20261201, numRuns: 1000 },
    );
  });
});
