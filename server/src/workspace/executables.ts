// Finding the tools the product may run (helm, kustomize, kubectl): a path that names an executable regular file,
// or the first such file of that name on PATH.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function isExecutable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable named `name` (`name.exe` on Windows) in the folders of `env.PATH`. */
export function onPath(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}
