// `kube-netlens build DIR` for a kustomization: the objects it builds, as `kustomize build DIR` prints them (or as
// one JSON array), computed by the native renderer.

import { relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { kustomizationFileOf, renderedObjects, renderKustomization } from '../kustomize/render';
import { diskReader, diskReaderWithin } from '../workspace/diskReader';
import { maxSizeKBLimit } from '../workspace/settings';
import { failure, type CommandResult } from './commandResult';
import type { BuildRequest } from './parseArgs';
import { messages, say } from '../l10n/l10n';

/** Whether DIR holds a kustomization (then `build` renders it, else it looks for a chart). */
export function isKustomizationDir(dir: string): boolean {
  return kustomizationFileOf(diskReader, pathToFileURL(resolve(dir)).href.replace(/\/+$/, '')) !== undefined;
}

export function kustomizeBuildCommand(request: BuildRequest): CommandResult {
  // asked for by name: every file the build reads is read, up to the hard cap on a file (64 MB), as Kustomize would
  const fsys = diskReaderWithin(undefined, maxSizeKBLimit * 1024);
  const msg = messages(request.locale);
  const dirUri = pathToFileURL(resolve(request.dir)).href.replace(/\/+$/, '');
  if (!fsys.list(dirUri)) return failure(msg('{0} is not a folder', request.dir));
  if (!kustomizationFileOf(fsys, dirUri))
    return failure(msg('{0} holds no kustomization (kustomization.yaml, kustomization.yml or Kustomization) and no Chart.yaml', request.dir));
  const cwd = pathToFileURL(resolve('.')).href.replace(/\/+$/, '');
  const unit = renderKustomization(fsys, dirUri, { label: request.dir, loadRestrictor: request.loadRestrictor, workspace: cwd });
  if (!unit.rendered) {
    const notes = unit.problems.map(
      (p) => `${displayPath(p.uri)}:${lineOf(fsys.read(p.uri) ?? '', p.span.start)}: ${p.phrase ? say(p.phrase, msg) : p.message}`,
    );
    return failure(
      msg('cannot build {0}', request.dir),
      notes.map((n) => n),
    );
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
