// Findings on a rendered apply unit (a Kustomize root's build, model/rendered.ts) land where their cause is: the
// base line of a field from a base, the patch line of a field a patch set, the kustomization line of a value a
// setting made. One cause found in several units (a base that three overlays include) is one finding that names
// them, with related information per unit.

import type { ManifestFile } from '../model/parseManifest';
import { sourceOf, type RenderedSource } from '../model/rendered';
import type { Span } from '../model/span';
import type { Finding, RelatedInfo } from '../rules/finding';

const atStart: Span = { start: 0, end: 0 };

/** `findings` with those on rendered files mapped to their sources, merged per source place; in finding order. */
export function mapRenderedFindings(files: readonly ManifestFile[], findings: readonly Finding[], order: (f: Finding[]) => Finding[]): Finding[] {
  const rendered = new Map<string, RenderedSource>();
  for (const f of files) if (f.rendered) rendered.set(f.uri, f.rendered);
  if (!rendered.size || !findings.some((f) => rendered.has(f.uri))) return [...findings];
  const out: Finding[] = [];
  const merged = new Map<string, { finding: Finding; units: string[]; related: RelatedInfo[] }>();
  for (const f of findings) {
    const unit = rendered.get(f.uri);
    if (!unit) {
      out.push(f);
      continue;
    }
    const at = place(unit, f.span);
    const related = (f.related ?? []).map((r) => {
      const u = rendered.get(r.uri);
      if (!u) return r;
      const p = place(u, r.span);
      return { uri: p.uri, span: p.span, message: r.message };
    });
    const via = at.via ? ` (written by ${at.via} in ${unit.label})` : '';
    const perUnit: RelatedInfo = { uri: unit.definedBy, span: atStart, message: `In the build of ${unit.label}: ${f.message}${via}` };
    const key = `${at.uri}\u0000${at.span.start}\u0000${at.span.end}\u0000${f.code}`;
    const seen = merged.get(key);
    if (seen) {
      if (!seen.units.includes(unit.label)) {
        seen.units.push(unit.label);
        seen.related.push(perUnit);
      }
      continue;
    }
    const finding: Finding = { uri: at.uri, span: at.span, code: f.code, severity: f.severity, message: f.message, resource: f.resource, tags: f.tags };
    merged.set(key, { finding, units: [unit.label], related: [...related, perUnit] });
  }
  for (const { finding, units, related } of merged.values())
    out.push({ ...finding, message: `${finding.message} (in ${units.length === 1 ? 'the build of ' : 'the builds of '}${units.join(', ')})`, related });
  return order(out);
}

function place(unit: RenderedSource, span: Span): { uri: string; span: Span; via?: string } {
  const m = sourceOf(unit.text, span);
  return m ? { uri: m.uri, span: m.span, via: m.via } : { uri: unit.definedBy, span: atStart };
}
