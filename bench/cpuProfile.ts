// Summarises a V8 .cpuprofile: self time per function, mapped back to the TypeScript source through the bundle's
// source map, heaviest first.

import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface ProfileEntry {
  readonly function: string;
  /** `server/src/model/yamlTree.ts:42`, or the script URL for code outside the bundle. */
  readonly location: string;
  readonly selfMs: number;
  readonly selfPercent: number;
}

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: CallFrame }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Self time added up per area: the yaml library, each server layer, Node internals, the garbage collector. */
export interface AreaEntry {
  readonly area: string;
  readonly selfMs: number;
  readonly selfPercent: number;
}

export interface ProfileSummary {
  readonly top: readonly ProfileEntry[];
  readonly areas: readonly AreaEntry[];
}

export function summariseProfile(profilePath: string, top: number): ProfileSummary {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  // A sample's time is the delta to the next sample.
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  for (let i = 0; i < profile.samples.length; i++) {
    // Waiting for the client is not work.
    if (idle.has(profile.samples[i])) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
    totalUs += dt;
  }
  const maps = new Map<string, SourceMap | undefined>();
  const byFunction = new Map<string, { function: string; location: string; us: number }>();
  for (const [id, us] of selfUs) {
    const f = frames.get(id)!;
    const location = locate(f, maps);
    // V8's own entries, `(garbage collector)`, `(program)` and `(idle)`, come with a name and no URL.
    const name = f.functionName || '(anonymous)';
    const key = `${name}@${location}`;
    const e = byFunction.get(key) ?? { function: name, location, us: 0 };
    e.us += us;
    byFunction.set(key, e);
  }
  const share = (us: number) => ({ selfMs: us / 1000, selfPercent: totalUs ? (100 * us) / totalUs : 0 });
  const areas = new Map<string, number>();
  for (const e of byFunction.values()) {
    const area = areaOf(e.function, e.location);
    areas.set(area, (areas.get(area) ?? 0) + e.us);
  }
  return {
    top: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((e) => ({ function: e.function, location: e.location, ...share(e.us) })),
    areas: [...areas].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, ...share(us) })),
  };
}

function areaOf(fn: string, location: string): string {
  if (location === '' && fn.startsWith('(')) return fn;
  const m = /^(server\/src\/[^/]+|node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(location);
  if (m) return m[1];
  return location.startsWith('node:') || location === '' ? 'node internals' : 'other';
}

function locate(f: CallFrame, maps: Map<string, SourceMap | undefined>): string {
  if (!f.url.startsWith('file:')) return f.url;
  const path = fileURLToPath(f.url);
  if (!maps.has(path)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(path, map);
  }
  const map = maps.get(path);
  const entry = map?.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (!entry?.originalSource) return `${path}:${f.lineNumber + 1}`;
  const source = entry.originalSource.replace(/^.*?\/(server|node_modules)\//, '$1/');
  return `${source}:${(entry.originalLine ?? 0) + 1}`;
}
