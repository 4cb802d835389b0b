// `kubeNetlens.kustomize.roots` as a predicate over kustomization folders: a folder is a root when a pattern matches
// its path relative to the workspace folder that holds it (`overlays/*`), or that path with its kustomization file
// (`overlays/*/kustomization.yaml`). Patterns go through the linear-time glob automaton (workspace/glob.ts).

import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileGlobs } from './glob';

const fileNames = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** Undefined when no pattern is set (the native roots apply). `folders`: workspace folders, as file system paths. */
export function rootMatcher(patterns: readonly string[], folders: readonly string[]): ((dirUri: string) => boolean) | undefined {
  if (!patterns.length) return undefined;
  const match = compileGlobs(patterns).match;
  const memo = new Map<string, boolean>();
  return (dirUri) => {
    let known = memo.get(dirUri);
    if (known === undefined) {
      known = matches(dirUri);
      memo.set(dirUri, known);
    }
    return known;
  };
  function matches(dirUri: string): boolean {
    let path: string;
    try {
      // file URIs in the language server, paths as the command line shows them
      path = dirUri.startsWith('file:') ? fileURLToPath(dirUri) : resolve(dirUri);
    } catch {
      return false;
    }
    for (const folder of folders) {
      if (path !== folder && !path.startsWith(folder.endsWith(sep) ? folder : folder + sep)) continue;
      const rel = relative(folder, path).split(sep).join('/');
      if ((rel && match(rel)) || fileNames.some((n) => match(rel ? `${rel}/${n}` : n))) return true;
    }
    return false;
  }
}
