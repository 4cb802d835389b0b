// The note that says how many of a file's findings are not shown (engine/evaluate.ts `capPerFile`) is worded in the
// finding's language, like every other message.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { maxFindingsPerFile } from '../../server/src/engine/evaluate';

// 210 Services whose selectors match none of the pods there: 210 findings in one file, 10 over the cap
const deployment = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n`;
const services = Array.from(
  { length: maxFindingsPerFile + 10 },
  (_, i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s${i}\nspec:\n  selector:\n    app: wev\n  ports:\n    - port: 80\n`,
).join('---\n');

function capNote(locale: 'zh-cn' | undefined): string {
  const findings = diagnosticsFor(
    analyzeTexts(
      [
        { uri: 'file:///w/services.yaml', text: services },
        { uri: 'file:///w/web.yaml', text: deployment },
      ],
      { locale },
    ),
  );
  const inFile = findings.filter((f) => f.uri === 'file:///w/services.yaml');
  const notes = inFile.filter((f) => f.code === 'too-many-findings');
  assert.equal(notes.length, 1);
  assert.equal(inFile.length, maxFindingsPerFile + 1);
  return notes[0].message;
}

describe('the too-many-findings note', () => {
  it('says in English how many are not shown', () => assert.equal(capNote(undefined), '10 more findings in this file are not shown.'));
  it('says it in Chinese with the display language zh-cn', () => assert.equal(capNote('zh-cn'), '此文件中还有 10 个问题未显示。'));
});
