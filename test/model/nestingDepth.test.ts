// estimateNestingDepth (model/parseManifest.ts) jumps over the characters that change nothing; this is the same scan a
// character at a time, as it was first written: both must give the same estimate for every text.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { estimateNestingDepth } from '../../server/src/model/parseManifest';
import { repoYamlFiles } from '../helpers/repoYaml';

function referenceEstimate(text: string): number {
  let max = 0;
  let flow = 0;
  let lineStart = true;
  let lineDepth = 0;
  let quote: '' | '"' | "'" = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      lineDepth = 0;
      if (!flow) quote = '';
      continue;
    }
    if (quote) {
      if (quote === '"' && c === 92) i++;
      else if ((quote === '"' && c === 34) || (quote === "'" && c === 39)) quote = '';
      continue;
    }
    if (lineStart) {
      if (c === 32 || c === 9) {
        lineDepth += 0.5;
        continue;
      }
      const next = text.charCodeAt(i + 1);
      if ((c === 45 || c === 63 || c === 58) && (next === 32 || next === 9 || next === 10 || next === 13 || Number.isNaN(next))) {
        lineDepth += 1;
        if (lineDepth > max) max = lineDepth;
        continue;
      }
      lineStart = false;
      if (lineDepth > max) max = lineDepth;
      if (c === 35) {
        // a comment: skip to the end of the line
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? text.length : nl - 1;
        continue;
      }
    }
    if (c === 91 || c === 123) {
      flow++;
      if (flow + lineDepth > max) max = flow + lineDepth;
    } else if ((c === 93 || c === 125) && flow > 0) flow--;
    else if (c === 34 || c === 39) {
      const prev = text.charCodeAt(i - 1);
      // a quote opens a quoted scalar only where a scalar starts (`don't` is plain)
      if (i === 0 || prev === 32 || prev === 9 || prev === 10 || prev === 58 || (flow && (prev === 91 || prev === 123 || prev === 44)))
        quote = c === 34 ? '"' : "'";
    } else if (c === 35 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
    }
  }
  return Math.ceil(max);
}

describe('estimateNestingDepth', () => {
  it('equals the character-at-a-time scan on every YAML file of examples/ and test/fixtures/', () => {
    const files = repoYamlFiles();
    assert.ok(files.length > 100);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      assert.equal(estimateNestingDepth(text), referenceEstimate(text), f);
    }
  });

  it('equals it on random texts of quotes, escapes, brackets, comments, dashes and indentation', () => {
    const piece = fc.constantFrom('a', ' ', '  ', '\n', '"', "'", '\\', '#', ' #', '[', ']', '{', '}', '- ', '? ', ': ', '\t', ',', 'x: ', '\r\n', "''", 'é');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (parts) => {
        const text = parts.join('');
        assert.equal(estimateNestingDepth(text), referenceEstimate(text), JSON.stringify(text));
      }),
      { seed: 27, numRuns: 20000 },
    );
  });
});
