// `kube-netlens build DIR` for a kustomization: the objects it builds, as `kustomize build DIR` prints them (or as
// one JSON array), computed by the native renderer.

import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { kustomizationFileOf, renderedObjects, renderKustomization, type FileReader } from '../kustomize/render';
import { failure, type CommandResult } from './commandResult';
import type { BuildRequest } from './parseArgs';

/** Whether DIR holds a kustomization (then `build` renders it, else it looks for a chart). */
export function isKustomizationDir(dir: string): boolean {
  const fsys = nodeFileReader();
  return kustomizationFileOf(fsys, pathToFileURL(resolve(dir)).href.replace(/\/+$/, '')) !== undefined;
}

/** The local file system as the renderer's read-only view (file: URLs, or paths as the CLI shows them). */
export function nodeFileReader(): FileReader {
  const pathOf = (uri: string) => (uri.startsWith('file:') ? fileURLToPath(uri) : uri);
  return {
    read(uri) {
      try {
        const p = pathOf(uri);
        return statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined;
      } catch {
        return undefined;
      }
    },
    list(dirUri) {
      try {
        return readdirSync(pathOf(dirUri));
      } catch {
        return undefined;
      }
    },
    // for the load restrictor (kustomize/render.ts readIn): links resolved, spelt as the URI or path was
    realUri(uri) {
      try {
        const p = pathOf(uri);
        const real = realpathSync.native(p);
        if (real === resolve(p)) return uri;
        return uri.startsWith('file:') ? pathToFileURL(real).href : real;
      } catch {
        return undefined;
      }
    },
  };
}

export function kustomizeBuildCommand(request: BuildRequest): CommandResult {
  const fsys = nodeFileReader();
  const dirUri = pathToFileURL(resolve(request.dir)).href.replace(/\/+$/, '');
  if (!fsys.list(dirUri)) return failure(`${request.dir} is not a folder`);
  if (!kustomizationFileOf(fsys, dirUri)) return failure(`${request.dir} holds no kustomization (kustomization.yaml, kustomization.yml or Kustomization) and no Chart.yaml`);
  const cwd = pathToFileURL(resolve('.')).href.replace(/\/+$/, '');
  const unit = renderKustomization(fsys, dirUri, { label: request.dir, loadRestrictor: request.loadRestrictor, workspace: cwd });
  if (!unit.rendered) {
    const notes = unit.problems.map((p) => `${displayPath(p.uri)}:${lineOf(fsys.read(p.uri) ?? '', p.span.start)}: ${p.message}`);
    return failure(`cannot build ${request.dir}`, notes.map((n) => n));
  }
  if (request.format === 'yaml') return { exitCode: 0, stdout: unit.rendered.text, stderr: [] };
  const objects = renderedObjects(unit.rendered.text);
  return { exitCode: 0, stdout: JSON.stringify(objects, null, 2) + '\n', stderr: [] };
}

/** A path as the command line shows it: relative to the current folder (never an absolute path). */
function displayPath(uri: string): string {
  try {
    return relative(resolve('.'), fileURLToPath(uri)).split(sep).join('/') || '.';
  } catch {
    return uri;
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
