// The one place tests call hoverAt: loads a `$0` fixture and compares the hover with its golden Markdown file
// (`UPDATE_GOLDEN=1` rewrites the golden files).

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { hoverAt } from '../../server/src/features/hover';
import { cursorIn, parseFixture } from '../helpers/fixture';

export function checkHover(fixturePath: string, goldenPath: string): string {
  const raw = parseFixture(readFileSync(fixturePath, 'utf8'), 'file:///fixture/', fixturePath.split('/').pop()!);
  const withCursor = raw.sources.find((s) => s.text.includes('$0'));
  assert.ok(withCursor, `${fixturePath} has no $0 cursor`);
  const { text, offset } = cursorIn(withCursor.text);
  const sources = raw.sources.map((s) => (s === withCursor ? { uri: s.uri, text } : s));
  const hover = hoverAt(analyzeTexts(sources), withCursor.uri, offset);
  assert.ok(hover, `no hover at the $0 cursor of ${fixturePath}`);
  // Both parse paths (the fast parser and the yaml library) must give the same hover.
  const slow = hoverAt(analyzeTexts(sources, undefined, { fastPath: false }), withCursor.uri, offset);
  assert.deepEqual(slow, hover, `the yaml-library parse path gives another hover at the $0 cursor of ${fixturePath}`);
  assert.ok(hover.span.start <= offset && offset <= hover.span.end, 'the hover span does not cover the cursor');
  const actual = hover.markdown.trimEnd() + '\n';
  if (process.env.UPDATE_GOLDEN || !existsSync(goldenPath)) writeFileSync(goldenPath, actual);
  assert.equal(actual, readFileSync(goldenPath, 'utf8'), `hover differs from ${goldenPath} (UPDATE_GOLDEN=1 to accept)`);
  return actual;
}
