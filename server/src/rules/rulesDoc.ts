// docs/rules.md as text, generated from the rule registry's metadata so the documentation cannot drift from the code.

import { inputCodes } from './inputCodes';
import type { Rule } from './rule';

export function renderRulesDoc(rules: readonly Rule[]): string {
  const out: string[] = [
    '# Rules',
    '',
    '<!-- Generated from the rule modules in server/src/rules/ by scripts/derived.ts (`npm run derived`; the build and the tests run it). Do not edit by hand. -->',
    '',
    'Kubernetes Network Lens reads the Kubernetes manifests in your workspace and reports networking mistakes that the API server accepts but the cluster will not route the way you expect. Each finding carries one of the codes below. Change a rule\'s severity, or turn it off, with the `kubeNetlens.rules` setting in the editor (for example `"kubeNetlens.rules": {"service-port-not-exposed": "off"}`).',
    '',
    'References such as *semantics §1.1* point to the sections of the network semantics reference that the analysis follows; *gateway semantics §G2* points to [the Gateway API semantics](gateway-semantics.md).',
    '',
    '**What is applied together.** A repository often holds variants of one install side by side (per provider, HA and non-HA, a bundle next to its sources, dev and prod). Two folders or files that define the same object differently are variants: each is analysed with the files above and beside it, never with the other (ARCHITECTURE.md, "Apply scopes"). Kustomizations, the patches they list and Helm chart templates are inputs to a build, not objects, and are not read as manifests.',
    '',
    '**Unknown is not missing.** Where the manifests cannot know (pods an operator makes from a custom resource, labels whose values a controller generates, a namespace or Service created elsewhere, a value a tool fills in later), rules stay quiet rather than report something that may be wrong. Each rule says below when it stays quiet. An object the API server rejects does not exist: it gives no DNS names or endpoints, and what depends on it says so.',
    '',
    '| Code | Default severity | What it catches |',
    '|---|---|---|',
    ...rules.map((r) => `| [\`${r.code}\`](#${r.code}) | ${r.defaultSeverity} | ${escapeCell(r.title)} |`),
  ];
  for (const r of rules) {
    out.push(
      '',
      `## ${r.code}`,
      '',
      `**${r.title}** (default severity: ${r.defaultSeverity})`,
      '',
      r.description.trim(),
      '',
      '**Fires on:**',
      '',
      '```yaml',
      r.examples.bad.trim(),
      '```',
      '',
      '**Quiet on:**',
      '',
      '```yaml',
      r.examples.good.trim(),
      '```',
    );
  }
  out.push(
    '',
    '## Other codes',
    '',
    'Findings that no rule makes: problems of the input and of the tools that render it, and notes about the analysis itself. The severity shown is the usual one; `kubeNetlens.rules` changes it as it does a rule\'s.',
  );
  for (const c of inputCodes) out.push('', `### ${c.code}`, '', `${c.title} (default severity: ${c.defaultSeverity}).`);
  return out.join('\n') + '\n';
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}
