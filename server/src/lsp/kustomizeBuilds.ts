// Kustomize roots the native renderer does not evaluate, built by the user's Kustomize in the language server: after
// indexing and settings changes, and again when a saved file is one a build read (the real Kustomize reads what is
// on disk, so unsaved text reaches its builds on save). Results enter the workspace together (one analysis).

import { diskReader } from '../workspace/diskReader';
import { buildWithKustomize, kustomizeForSettings } from '../workspace/kustomizeBinary';
import type { Snapshot, Workspace } from '../workspace/workspace';

type RenderedUnit = Snapshot['kustomizeUnits'][number];

const parallelBuilds = 2;

export interface KustomizeBuilder {
  buildAll(): void;
  filesChanged(uris: readonly string[]): void;
}

export function createKustomizeBuilder(
  workspace: Workspace,
  onBuilt: () => void,
  log: (message: string) => void,
  onProgress?: (count: { readonly done: number; readonly total: number }) => void,
): KustomizeBuilder {
  let run = 0;
  let built: ReadonlyMap<string, RenderedUnit> = new Map();
  const buildAll = () => {
    const id = ++run;
    const snap = workspace.snapshot();
    const tool = kustomizeForSettings(snap.settings.kustomize, process.env);
    const wanted = tool ? snap.kustomizeWanted : [];
    if (!wanted.length) {
      if (built.size) {
        built = new Map();
        workspace.setKustomizeBuilds(built);
        onBuilt();
      }
      return;
    }
    const reader = { read: (u: string) => snap.text(u) ?? diskReader.read(u), list: diskReader.list };
    const out = new Map<string, RenderedUnit>();
    // the files the builds' objects are mapped back to (bases, CRDs) are parsed once for all of them
    const parsed: NonNullable<Parameters<typeof buildWithKustomize>[3]> = new Map();
    let next = 0;
    const started = Date.now();
    let finished = 0;
    onProgress?.({ done: 0, total: wanted.length });
    const worker = async () => {
      while (next < wanted.length && id === run) {
        const native = wanted[next++];
        try {
          out.set(native.definedBy, await buildWithKustomize(tool!, native, reader, parsed));
        } catch (err) {
          // only a bug lands here (Kustomize's failures are values): that root keeps its note
          log(`Building ${native.label} with Kustomize failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        }
        if (id === run) onProgress?.({ done: ++finished, total: wanted.length });
      }
    };
    void Promise.all(Array.from({ length: Math.min(parallelBuilds, wanted.length) }, worker)).then(() => {
      if (id !== run) return;
      log(`Built ${out.size} Kustomize root${out.size === 1 ? '' : 's'} with ${tool!.path} in ${Date.now() - started} ms`);
      built = out;
      workspace.setKustomizeBuilds(out);
      onBuilt();
    });
  };
  return {
    buildAll,
    filesChanged(uris) {
      const snap = workspace.snapshot();
      if (!snap.kustomizeWanted.length) return;
      const read = new Set([...snap.kustomizeWanted, ...built.values()].flatMap((u) => u.inputs));
      if (uris.some((u) => read.has(u) || /\/(kustomization\.ya?ml|Kustomization)$/.test(u))) buildAll();
    },
  };
}
