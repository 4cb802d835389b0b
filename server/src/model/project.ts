// The project model: which files are applied together. A repository is not one cluster: it holds variants of one
// install side by side (per provider, HA and non-HA, a bundle next to its sources, dev/staging/prod), and they are
// never applied together (architecture: "the project model"). This module decides, from the files alone, which
// objects a lookup from a file may see.
//
// The rule, in full (ARCHITECTURE.md repeats it):
// - Two parts of the repository are **variants** of each other when both define the same object (kind, namespace,
//   name) and the two definitions differ: applying both would make one overwrite the other, so nobody applies both.
//   Identical copies (a generated bundle equal to its sources, one Namespace written in every folder) are one object
//   and make no variants; Namespace objects never do.
// - The parts compared are taken where the two files' paths part: the two sub-folders of their deepest common
//   folder, or the files themselves when both sit in it (`install.yaml` next to `install-ha.yaml`).
// - A file sees every object except those in a variant of a part on its own path. Objects in files above or beside
//   it that are no variants of its parts are applied with it (a shared `namespace.yaml`, the other services).
// - Two parts are variants too when each defines a workload whose selector claims the other's pods (each selector
//   matches the other's pod template labels): two controllers owning the same pods in one apply is what the
//   Deployment documentation warns against ("overlapping selectors"), and it is how documentation examples that stand
//   alone look side by side (`examples/https-nginx/` and `examples/volumes/` each running pods labelled `app: nginx`).
//   A claim in one direction only (a broad selector over a narrower workload's pods) is not enough: that is one app's
//   components, applied together.
// - The renders of one Helm chart with different value sets are always variants: a release is installed with one.
// - Files that see the same objects form one **scope**; every lookup of a rule or a hover answers within the scope of
//   the file it starts from. With no variants in the workspace there is one scope, the whole workspace.
// Kustomize builds and Helm releases are apply units of their own (model/rendered.ts): the file holding a unit's
// rendered objects (`ManifestFile.rendered`) is one scope that sees nothing else.

import type { Cluster, NamespaceObjects } from './cluster';
import { push } from './multiMap';
import type { ManifestFile } from './parseManifest';
import type { Resource, Workload } from './resources';
import { selectorMatches, type LabelSelector } from './selector';

export interface Scope {
  /** '' for the whole workspace; otherwise the variant parts on its files' paths. */
  readonly id: string;
  /** The variant for people (`install/aws`, `manifests/install.yaml`); undefined for the whole workspace. */
  readonly label?: string;
  /** The files whose objects this scope checks and reports on: each file is a member of exactly one scope. */
  readonly members: readonly ManifestFile[];
  /** The files whose objects its lookups see, members included, in URI order. */
  readonly visible: readonly ManifestFile[];
}

export interface ScopePlan {
  readonly scopes: readonly Scope[];
  scopeOf(uri: string): Scope;
  /** Equal for two plans with the same variants: the same files then fall in the same scopes. */
  readonly signature: string;
}

/** The scopes of a workspace's files, given the objects defined in more than one file (`Cluster.copies`). */
export function planScopes(
  allFiles: readonly ManifestFile[],
  allCopies: readonly (readonly Resource[])[],
  allClashes: readonly (readonly Resource[])[] = [],
): ScopePlan {
  // A rendered apply unit (a Kustomize root's build) is a cluster of its own: one scope that sees only itself.
  const rendered = allFiles.filter((f) => f.rendered);
  if (!rendered.length) return planPlainScopes(allFiles, allCopies, allClashes);
  const files = allFiles.filter((f) => !f.rendered);
  const renderedUris = new Set(rendered.map((f) => f.uri));
  const plainOnly = (groups: readonly (readonly Resource[])[]) =>
    groups.map((defs) => defs.filter((d) => !renderedUris.has(d.uri))).filter((defs) => defs.length > 1);
  const plain = planPlainScopes(files, plainOnly(allCopies), plainOnly(allClashes));
  const units: Scope[] = rendered.map((f) => ({ id: `unit:${f.rendered!.unitId}`, label: f.rendered!.label, members: [f], visible: [f] }));
  const byUri = new Map(units.map((s) => [s.members[0].uri, s]));
  const scopes = plain.scopes.length === 1 && !plain.scopes[0].members.length ? units : [...plain.scopes, ...units];
  return {
    scopes,
    scopeOf: (uri) => byUri.get(uri) ?? plain.scopeOf(uri),
    signature: [plain.signature, ...units.map((u) => u.id)].join('\n'),
  };
}

function planPlainScopes(files: readonly ManifestFile[], copies: readonly (readonly Resource[])[], clashes: readonly (readonly Resource[])[]): ScopePlan {
  const pairs = new Set<string>();
  const rivalParts = new Set<string>();
  const rivals = (a: Resource, b: Resource) => {
    const [pa, pb] = partsWhereApart(a.uri, b.uri);
    pairs.add(`${pa}\u0000${pb}`);
    pairs.add(`${pb}\u0000${pa}`);
    rivalParts.add(pa);
    rivalParts.add(pb);
  };
  for (const defs of copies) {
    if (defs[0].kind === 'Namespace') continue;
    for (let i = 0; i < defs.length; i++) {
      for (let j = i + 1; j < defs.length; j++) {
        const a = defs[i];
        const b = defs[j];
        if (a.uri === b.uri || sameDefinition(a, b)) continue;
        rivals(a, b);
      }
    }
  }
  for (const [a, b] of clashes) if (a.uri !== b.uri) rivals(a, b);
  // The value sets of one chart are alternatives: a release is installed with one of them (model/helmCharts.ts
  // renderUri `<chart>/#helm/<value set>`), so its renders are variants even where one only adds objects (a custom
  // resource rendered in one value set says nothing of the others).
  const releases = new Map<string, string[]>();
  for (const f of files) {
    const i = f.uri.indexOf('#helm/');
    if (i < 0) continue;
    const chart = f.uri.slice(0, i);
    push(releases, chart, f.uri);
  }
  for (const renders of releases.values()) {
    for (let i = 0; i < renders.length; i++) {
      for (let j = i + 1; j < renders.length; j++) {
        const [pa, pb] = partsWhereApart(renders[i], renders[j]);
        pairs.add(`${pa}\u0000${pb}`);
        pairs.add(`${pb}\u0000${pa}`);
        rivalParts.add(pa);
        rivalParts.add(pb);
      }
    }
  }
  if (!pairs.size) {
    const whole: Scope = { id: '', members: files, visible: files };
    return { scopes: [whole], scopeOf: () => whole, signature: '' };
  }
  // A file's parts are its folder's (worked out once per folder: a workspace has far fewer folders than files), and
  // the file itself when it is a rival part.
  const folderParts = new Map<string, string[]>();
  const keyOf = (uri: string): string[] => {
    const folder = uri.slice(0, uri.lastIndexOf('/') + 1);
    let parts = folderParts.get(folder);
    if (!parts) {
      parts = [];
      for (let cut = folder.indexOf('/'); cut >= 0; cut = folder.indexOf('/', cut + 1)) {
        const part = folder.slice(0, cut + 1);
        if (rivalParts.has(part)) parts.push(part);
      }
      folderParts.set(folder, parts);
    }
    return rivalParts.has(uri) ? [...parts, uri] : parts;
  };
  const groups = new Map<string, { index: number; parts: string[]; members: ManifestFile[] }>();
  /** Each file's group, by the files' order: files of one group see and are seen alike. */
  const groupOf = new Int32Array(files.length);
  let n = 0;
  for (const f of files) {
    const parts = keyOf(f.uri);
    const id = parts.join('\n');
    let g = groups.get(id);
    if (g) g.members.push(f);
    else groups.set(id, (g = { index: groups.size, parts, members: [f] }));
    groupOf[n++] = g.index;
  }
  // A group sees every group but those with a part that rivals one of its own: found from the rivals, group by group,
  // never by testing every pair of files (a hundred charts' renders are hundreds of groups over the same files).
  const rivalsOf = new Map<string, string[]>();
  for (const pair of pairs) {
    const [p, q] = pair.split('\u0000');
    push(rivalsOf, p, q);
  }
  const groupsWith = new Map<string, number[]>();
  for (const g of groups.values()) for (const p of g.parts) push(groupsWith, p, g.index);
  const root = commonFolder(files.map((f) => f.uri));
  const scopes: Scope[] = [];
  const byUri = new Map<string, Scope>();
  /** The groups apart from the one at hand, marked (and cleared again after it). */
  const away = new Uint8Array(groups.size);
  for (const [id, g] of groups) {
    const apart: number[] = [];
    for (const p of g.parts) for (const q of rivalsOf.get(p) ?? []) for (const h of groupsWith.get(q) ?? []) apart.push(h);
    let visible = files;
    if (apart.length) {
      for (const h of apart) away[h] = 1;
      const seen: ManifestFile[] = [];
      for (let i = 0; i < files.length; i++) if (!away[groupOf[i]]) seen.push(files[i]);
      for (const h of apart) away[h] = 0;
      visible = seen;
    }
    const last = g.parts[g.parts.length - 1];
    // a Helm render (`<chart>/#helm/<value set>`, model/helmCharts.ts renderUri) is named by its value set
    const label =
      last === undefined
        ? undefined
        : decodeLabel(
            last
              .slice(root.length)
              .replace(/\/$/, '')
              .replace(/(^|\/)#helm\/([^/]*)$/, (_, slash: string, id: string) => `${slash}${decodeLabel(id)}`),
          ) || last;
    const scope: Scope = { id, label, members: g.members, visible };
    scopes.push(scope);
    for (const f of g.members) byUri.set(f.uri, scope);
  }
  const fallback = scopes.find((s) => s.id === '') ?? { id: '', members: [], visible: files };
  return { scopes, scopeOf: (uri) => byUri.get(uri) ?? fallback, signature: [...pairs].sort().join('\n') };
}

/**
 * Pairs of workloads in different files that claim each other's pods: each one's selector matches the other's pod
 * template labels, in one namespace (see the rule above). Controllers only (Pods have no selector; Jobs' selectors are
 * generated). Kept per namespace's objects, which a later cluster reuses for the namespaces an edit did not touch.
 */
export function podClaimClashes(cluster: Cluster): readonly (readonly [Workload, Workload])[] {
  const out: (readonly [Workload, Workload])[] = [];
  // A rendered apply unit is a scope of its own, so its workloads never make variants (planScopes drops such pairs):
  // they are not compared at all, or 1,000 overlays of one base would be half a million pairs of identical labels.
  const rendered = new Set<string>();
  for (const f of cluster.files) if (f.rendered) rendered.add(f.uri);
  for (const ns of cluster.namespacesWithObjects()) {
    const objects = cluster.objectsIn(ns);
    if (!objects) continue;
    let found = clashMemo.get(objects);
    if (!found) {
      found = [];
      for (const w of objects.workloads) {
        if (rendered.has(w.uri)) continue;
        const mine = claimedLabels(w);
        if (!mine) continue;
        for (const other of cluster.workloadsMatching(ns, mine.matchLabels)) {
          // Each pair once (from the first of the two in URI order), between files, when the claim is mutual.
          if (other === w || other.uri <= w.uri || rendered.has(other.uri) || !selectorMatches(mine, other.template.labels)) continue;
          const theirs = claimedLabels(other);
          if (theirs && selectorMatches(theirs, w.template.labels)) found.push([w, other]);
        }
      }
      clashMemo.set(objects, found);
    }
    // one at a time: a spread of hundreds of thousands of pairs (1,000 overlays of one base) overflows the stack
    for (const pair of found) out.push(pair);
  }
  return out;
}

const clashMemo = new WeakMap<NamespaceObjects, (readonly [Workload, Workload])[]>();

/**
 * The selector by which a controller claims pods, with a match on at least one label; undefined for Pods and Jobs.
 * A ReplicationController without one claims the pods of its template labels (the API server defaults it so).
 */
function claimedLabels(w: Workload): LabelSelector | undefined {
  if (w.kind === 'Pod' || w.kind === 'Job' || w.kind === 'CronJob' || !w.template.labels.size) return undefined;
  const s =
    w.selector ??
    (w.kind === 'ReplicationController' ? { matchLabels: w.template.labels, matchExpressions: [], labelSpans: new Map(), span: w.span } : undefined);
  return s && s.matchLabels.size ? s : undefined;
}

/** The two parts where two file URIs part: the sub-folders (ending in `/`) of their deepest common folder, or the files. */
function partsWhereApart(a: string, b: string): [string, string] {
  let common = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n && a[i] === b[i]; i++) if (a[i] === '/') common = i + 1;
  const end = (u: string) => {
    const slash = u.indexOf('/', common);
    return slash < 0 ? u : u.slice(0, slash + 1);
  };
  return [end(a), end(b)];
}

/** The deepest folder (ending in `/`) holding every URI. */
function commonFolder(uris: readonly string[]): string {
  if (!uris.length) return '';
  let prefix = uris[0].slice(0, uris[0].lastIndexOf('/') + 1);
  for (const u of uris) {
    while (!u.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  }
  return prefix;
}

function decodeLabel(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const normalized = new WeakMap<Resource, string>();

/** Whether two definitions of one object say the same thing, comments and blank lines aside. */
function sameDefinition(a: Resource, b: Resource): boolean {
  return definitionText(a) === definitionText(b);
}

function definitionText(r: Resource): string {
  let t = normalized.get(r);
  if (t === undefined) {
    t = r.source.text
      .slice(r.span.start, r.span.end)
      .split(/\r?\n/)
      .map((l) => l.replace(/\s+$/, ''))
      .filter((l) => l && !/^\s*#/.test(l) && l !== '---')
      .join('\n');
    normalized.set(r, t);
  }
  return t;
}
