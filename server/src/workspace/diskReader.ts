// Reads, for a Kustomize build, files of the workspace that are not indexed as manifests (env files, files a
// generator embeds, JSON patches): synchronously, only for file: URIs, through readBounded (regular files only, at
// most 1 MB). In an untrusted workspace only files inside the workspace folders (links resolved) are read at all
// (docs/robustness.md, third round); what a kustomization itself may read is held to its own folder by the
// renderer's load restrictor (kustomize/render.ts readIn), which asks `realUri` here to resolve links.

import { readdirSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FileReader } from '../kustomize/render';
import { readBounded, realRoots } from './readBounded';
import { fileUri } from './uri';

const maxBytes = 1024 * 1024;

/** `folders`: file system paths the reads must lie in (links resolved); undefined: anywhere (a trusted workspace). */
export function diskReaderWithin(folders?: readonly string[]): FileReader {
  const roots = folders && realRoots(folders);
  const inside = (real: string) => !roots || roots.some((r) => real === r || real.startsWith(r.endsWith('/') ? r : r + '/'));
  const real = (uri: string): string | undefined => {
    try {
      return realpathSync.native(fileURLToPath(uri));
    } catch {
      return undefined;
    }
  };
  return {
    read(uri) {
      if (!uri.startsWith('file:')) return undefined;
      let path: string;
      try {
        path = fileURLToPath(uri);
      } catch {
        return undefined;
      }
      const r = readBounded(path, { maxBytes, roots });
      return r.ok ? r.text : undefined;
    },
    list(dirUri) {
      if (!dirUri.startsWith('file:')) return undefined;
      const r = real(dirUri);
      if (r === undefined || !inside(r)) return undefined;
      try {
        return readdirSync(r);
      } catch {
        return undefined;
      }
    },
    realUri(uri) {
      if (!uri.startsWith('file:')) return undefined;
      const r = real(uri);
      if (r === undefined) return undefined;
      // the same spelling as the URI when nothing was a link (workspace URIs are canonical, workspace/uri.ts)
      const spelt = fileUri(r);
      return spelt === fileUri(fileURLToPath(uri)) ? uri : spelt;
    },
  };
}

/** Reads anywhere on the disk (a trusted workspace). */
export const diskReader: FileReader = diskReaderWithin();
