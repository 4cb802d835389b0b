// Deep nesting can abort V8 inside the YAML parser (a fatal error no try/catch stops), so each shape is parsed twice,
// and then every shape once more, in a child process that must exit normally with every file refused.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(__dirname, '..', '..');

describe('deep nesting in a child process', () => {
  it('parses every deep shape twice without crashing the process, refusing each', () => {
    const script = `
      import { parseManifest } from ${JSON.stringify(join(root, 'server/src/model/parseManifest.ts'))};
      import { deepShapes } from ${JSON.stringify(join(__dirname, 'hostileInputs.ts'))};
      for (const n of [1000, 3000]) for (const s of deepShapes(n)) for (let i = 0; i < 2; i++) {
        const m = parseManifest('file:///deep.yaml', s.text, { defaultNamespace: 'default' });
        if (m.skipped !== 'too-deep') { console.log('NOT REFUSED ' + s.name); process.exit(3); }
      }
      console.log('ok');`;
    const dir = mkdtempSync(join(tmpdir(), 'netlens-deep-'));
    const file = join(dir, 'parseDeep.ts');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8', timeout: 30000 });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(r.signal, null, `killed by ${r.signal}: ${r.stderr.slice(0, 400)}`);
    assert.equal(r.status, 0, r.stdout + r.stderr.slice(0, 400));
    assert.equal(r.stdout.trim(), 'ok');
  });
});
