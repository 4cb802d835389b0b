// Settings the server may take only from the user's own settings, never from a workspace's `.vscode/settings.json`
// (which a cloned repository brings): `kubeNetlens.kustomize.loadRestrictor`, which can let a kustomization read files
// outside its folder. package.json makes it machine-scoped (VS Code ignores workspace values) and restricted (an
// untrusted workspace cannot set it); this rewrites what the client answers the server's `workspace/configuration`
// request with to the user's (global) value, whatever VS Code merged. Pure (no vscode import), so it is unit-tested.

/** The settings, relative to `kubeNetlens`, that come from the user only. */
export const userOnlyKeys = ['kustomize.loadRestrictor'] as const;

/**
 * `section`: the `kubeNetlens` settings object VS Code merged; `userValue(key)`: the user's global value of
 * `kubeNetlens.<key>` (undefined when the user set none). Returns a copy with each user-only key replaced.
 */
export function withUserOnlySettings(section: unknown, userValue: (key: string) => unknown): unknown {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return section;
  let out = { ...(section as Record<string, unknown>) };
  for (const key of userOnlyKeys) {
    const [group, name] = key.split('.');
    const inner = out[group];
    const copy: Record<string, unknown> = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? { ...(inner as Record<string, unknown>) } : {};
    const value = userValue(key);
    if (value === undefined) delete copy[name];
    else copy[name] = value;
    out = { ...out, [group]: copy };
  }
  return out;
}
