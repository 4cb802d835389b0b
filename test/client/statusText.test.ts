// The status item's tooltip says what each group of files not analysed on its own is, and why: Kustomize build
// inputs, chart templates, test suites and files too large to read are told apart (the counts come from the
// workspace, as the server sends them).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { statusText, statusTooltip } from '../../client/src/statusText';
import { repoRoot } from '../helpers/bundle';
import { createWorkspace } from '../../server/src/workspace/workspace';

describe('the status item', () => {
  const ws = createWorkspace();
  const texts = new Map<string, string>();
  const shop = join(repoRoot, 'test', 'fixtures', 'kustomize', 'shop');
  for (const dir of ['base', 'overlays/prod']) {
    for (const name of readdirSync(join(shop, dir))) texts.set(`file:///w/${dir}/${name}`, readFileSync(join(shop, dir, name), 'utf8'));
  }
  texts.set('file:///w/chart/Chart.yaml', 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
  texts.set('file:///w/chart/templates/service.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n');
  texts.set('file:///w/e2e/kuttl-test.yaml', 'apiVersion: kuttl.dev/v1beta1\nkind: TestSuite\ntestDirs:\n  - e2e/tests\n');
  ws.replaceDisk(texts, ['file:///w/dump.yaml']);
  const stats = ws.snapshot().stats;
  const status = { ...stats, problems: 0, indexing: false };

  it('counts each group apart', () => {
    assert.equal(stats.skippedBuildInputs, 6, 'the two kustomizations and the four files the build reads');
    assert.equal(stats.skippedTemplates, 1);
    assert.equal(stats.skippedTests, 1);
    assert.equal(stats.skippedOther, 1, 'only the file too large to read');
    assert.match(statusText(status), / 9 skipped · /);
  });

  it('says in the tooltip what each group is and why it is not analysed on its own', () => {
    const lines = statusTooltip(status).split('\n');
    const notAnalysed = lines.slice(lines.indexOf('Not analysed on their own:') + 1);
    assert.deepEqual(notAnalysed, [
      '- 6 files: Kustomize build inputs (kustomizations, the bases, patches and files they read), checked in each build they are part of',
      '- 1 file: Helm chart templates of charts not rendered, or other Go templates ({{ }}), which only a render turns into objects',
      '- 1 file: test suites (chainsaw, kuttl, Go testdata), which a test harness applies, patches and asserts, or Go modules copied into vendor/',
      '- 1 file: too large (kubeNetlens.files.maxSizeKB), too deeply nested or binary, not read',
    ]);
    assert.ok(!statusTooltip(status).includes('skipped as too large'), 'build inputs are not called too large');
  });
});
