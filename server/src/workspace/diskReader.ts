// The one file reader of builds: reads, for a Kustomize build, files that are not indexed as manifests (env files,
// files a generator embeds, JSON patches, a base outside the folders given), for the language server, the command
// line and `kube-netlens build`: synchronously, for file: URIs and the command line's paths, through readBounded
// (regular files only, never a FIFO or a device, at most 16 MB by default). In an untrusted workspace only files inside the workspace folders (links resolved) are read at all
// (docs/robustness.md, third round); what a kustomization itself may read is held to its own folder by the
// renderer's load restrictor (kustomize/buildContext.ts readIn), which asks `realUri` here to resolve links.

import { readdirSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileReader } from '../kustomize/render';
import { readBounded, realRoots } from './readBounded';
import { fileUri } from './uri';

/**
 * The default cap on a file read for a build: 16 MB, the most of helm's output that is read (workspace/helm.ts
 * `maxRenderBytes`). A file a build includes is in the build's output whoever renders it: refused here, it went to the
 * real Kustomize, whose output of the same objects was parsed all the same (a platform's 3 MB CRD bundle cost seconds
 * that way). Manifests indexed on their own keep the workspace's 1 MB cap (`kubeNetlens.files.maxSizeKB`).
 */
export const defaultMaxReadBytes = 16 * 1024 * 1024;

/**
 * The file system path of a `file:` URI, or of a path as the command line spells its files (relative to the current
 * folder, or absolute); undefined for any other scheme (an untitled document, a render), which is never on disk.
 */
function pathOf(uri: string): string | undefined {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  }
  return /^[a-z][a-z0-9+.-]+:/i.test(uri) ? undefined : uri;
}

/**
 * `folders`: file system paths the reads must lie in (links resolved); undefined: anywhere (a trusted workspace, the
 * command line). `maxBytes`: the most a file may hold to be read.
 */
export function diskReaderWithin(folders?: readonly string[], maxBytes = defaultMaxReadBytes): FileReader {
  const roots = folders && realRoots(folders);
  const inside = (real: string) => !roots || roots.some((r) => real === r || real.startsWith(r.endsWith('/') ? r : r + '/'));
  const real = (path: string): string | undefined => {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  };
  return {
    read(uri) {
      const path = pathOf(uri);
      if (path === undefined) return undefined;
      const r = readBounded(path, { maxBytes, roots });
      return r.ok ? r.text : undefined;
    },
    list(dirUri) {
      const path = pathOf(dirUri);
      const r = path === undefined ? undefined : real(path);
      if (r === undefined || !inside(r)) return undefined;
      try {
        return readdirSync(r);
      } catch {
        return undefined;
      }
    },
    // for the load restrictor (kustomize/buildContext.ts readIn): links resolved, spelt as the URI or path was
    realUri(uri) {
      const path = pathOf(uri);
      const r = path === undefined ? undefined : real(path);
      if (r === undefined || path === undefined) return undefined;
      if (!uri.startsWith('file:')) return r === resolve(path) ? uri : r;
      // the same spelling as the URI when nothing was a link (workspace URIs are canonical, workspace/uri.ts)
      const spelt = fileUri(r);
      return spelt === fileUri(path) ? uri : spelt;
    },
  };
}

/** Reads anywhere on the disk (a trusted workspace, the command line), files of at most 16 MB. */
export const diskReader: FileReader = diskReaderWithin();
