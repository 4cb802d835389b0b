// Golden files: compares a value with `<name>.golden.json` beside its fixture; `UPDATE_GOLDEN=1` rewrites them.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function checkGolden(goldenPath: string, actual: unknown): void {
  const text = JSON.stringify(actual, null, 2) + '\n';
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(goldenPath)) {
    if (process.env.UPDATE_GOLDEN !== '1') assert.fail(`missing golden file ${goldenPath}; run with UPDATE_GOLDEN=1 to create it`);
    writeFileSync(goldenPath, text);
    return;
  }
  assert.deepEqual(JSON.parse(text), JSON.parse(readFileSync(goldenPath, 'utf8')), `differs from ${goldenPath} (UPDATE_GOLDEN=1 rewrites it)`);
}
