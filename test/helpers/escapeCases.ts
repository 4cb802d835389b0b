// Kustomizations that try to read a file outside their folder (docs/robustness.md, third round): for each file-reading
// field (generator `files`, generator `envs`, a patch by path, a resource file) and each way out (an absolute path, a
// `../` escape, a link inside the folder leading out), written into a fresh temporary folder at test time: nothing
// absolute and no link is committed. The file outside holds a marker that must never show up in any output.

import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tempDirs';

/** What the files outside the workspace hold; no build, message or hover may contain it. */
export const secretMarker = 'TOP-SECRET-4f1c';

export const escapeFields = ['files', 'envs', 'patch', 'resource'] as const;
export const escapeWays = ['absolute', 'dotdot', 'symlink'] as const;
export type EscapeField = (typeof escapeFields)[number];
export type EscapeWay = (typeof escapeWays)[number];

export interface EscapeCase {
  readonly name: string;
  readonly field: EscapeField;
  readonly way: EscapeWay;
  /** The kustomization folder (absolute). */
  readonly dir: string;
}

export interface EscapeLayout {
  /** The temporary folder holding both (removed by the caller). */
  readonly top: string;
  /** The workspace: `cases/<field>-<way>/` and two folders that build (`ok/inside`, `ok/overlay` over `ok/base`). */
  readonly workspace: string;
  /** A sibling of the workspace, the files a kustomization must not read. */
  readonly outside: string;
  readonly cases: readonly EscapeCase[];
  /** Kustomizations that read only what they may: a local generator file, and a base directory outside the overlay's folder. */
  readonly allowed: readonly string[];
}

const configMap = (name: string, data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${data}\n`;

const outsideFile: Record<EscapeField, string> = { files: 'secret.txt', envs: 'secret.env', patch: 'patch.yaml', resource: 'leak.yaml' };

function kustomization(field: EscapeField, ref: string): string {
  const q = JSON.stringify(ref);
  switch (field) {
    case 'files':
      return `configMapGenerator:\n  - name: gen\n    files:\n      - ${q}\n`;
    case 'envs':
      return `configMapGenerator:\n  - name: gen\n    envs:\n      - ${q}\n`;
    case 'patch':
      return `resources:\n  - local.yaml\npatches:\n  - path: ${q}\n`;
    case 'resource':
      return `resources:\n  - local.yaml\n  - ${q}\n`;
  }
}

export function writeEscapeLayout(): EscapeLayout {
  const top = realpathSync(tempDir('kube-netlens-escape-'));
  const workspace = join(top, 'ws');
  const outside = join(top, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${secretMarker}\n`);
  writeFileSync(join(outside, 'secret.env'), `SECRET=${secretMarker}\n`);
  writeFileSync(join(outside, 'patch.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local\ndata:\n  stolen: ${secretMarker}\n`);
  writeFileSync(join(outside, 'leak.yaml'), configMap('leak', `stolen: ${secretMarker}`));
  const cases: EscapeCase[] = [];
  for (const field of escapeFields) {
    for (const way of escapeWays) {
      const name = `${field}-${way}`;
      const dir = join(workspace, 'cases', name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'local.yaml'), configMap('local', 'a: b'));
      let ref: string;
      if (way === 'absolute') ref = join(outside, outsideFile[field]);
      else if (way === 'dotdot') ref = `../../../outside/${outsideFile[field]}`;
      else {
        symlinkSync(outside, join(dir, 'linked'), 'dir');
        ref = `linked/${outsideFile[field]}`;
      }
      writeFileSync(join(dir, 'kustomization.yaml'), kustomization(field, ref));
      cases.push({ name, field, way, dir });
    }
  }
  const inside = join(workspace, 'ok', 'inside');
  mkdirSync(join(inside, 'data'), { recursive: true });
  writeFileSync(join(inside, 'data', 'value.txt'), 'fine\n');
  writeFileSync(join(inside, 'kustomization.yaml'), 'configMapGenerator:\n  - name: gen\n    files:\n      - data/value.txt\n');
  const base = join(workspace, 'ok', 'base');
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, 'cm.yaml'), configMap('base', 'a: b'));
  writeFileSync(join(base, 'kustomization.yaml'), 'resources:\n  - cm.yaml\n');
  const overlay = join(workspace, 'ok', 'overlay');
  mkdirSync(overlay, { recursive: true });
  writeFileSync(join(overlay, 'kustomization.yaml'), 'resources:\n  - ../base\nnamePrefix: prod-\n');
  return { top, workspace, outside, cases, allowed: [inside, overlay] };
}
