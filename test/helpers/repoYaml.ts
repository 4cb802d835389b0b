// The YAML files of the repository's own examples and fixtures (examples/, test/fixtures/), in a stable order: the
// corpus the parsers' differential tests read.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

function yamlFiles(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

/** Absolute paths of every .yaml and .yml file under examples/ and test/fixtures/. */
export function repoYamlFiles(): string[] {
  const out: string[] = [];
  yamlFiles(join(root, 'examples'), out);
  yamlFiles(join(root, 'test', 'fixtures'), out);
  return out;
}
