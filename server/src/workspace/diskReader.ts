// Reads, for a Kustomize build, files of the workspace that are not indexed as manifests (env files, files a
// generator embeds, JSON patches): synchronously, only for file: URIs, and never anything but regular files.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FileReader } from '../kustomize/render';

const maxBytes = 1024 * 1024;

export const diskReader: FileReader = {
  read(uri) {
    if (!uri.startsWith('file:')) return undefined;
    try {
      const path = fileURLToPath(uri);
      const st = statSync(path);
      return st.isFile() && st.size <= maxBytes ? readFileSync(path, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
  list(dirUri) {
    if (!dirUri.startsWith('file:')) return undefined;
    try {
      return readdirSync(fileURLToPath(dirUri));
    } catch {
      return undefined;
    }
  },
};
