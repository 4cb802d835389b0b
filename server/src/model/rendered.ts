// Rendered apply units: the objects a build tool (Kustomize, Helm) makes from sources, as YAML text plus a source
// map. The analysis reads the rendered text like any manifest; a finding on it is mapped back to the source line that
// caused it (architecture: "results enter the model as texts plus source maps").

import type { ClusterDependence } from './helmLookups';
import type { Span } from './span';
import type { Msg, Phrase } from '../l10n/l10n';

/** One piece of rendered text and where it came from. */
export interface SourceMapping {
  /** A span of the rendered text: a key, a scalar, a collection or a whole document. */
  readonly rendered: Span;
  /** The workspace file it came from (a base file, a patch, a kustomization, a chart template). */
  readonly uri: string;
  /** Where in that file's text. */
  readonly span: Span;
  /** What made the value when it is not the source's literal text, for messages: `namePrefix`, `namespace`, `configMapGenerator`… */
  readonly via?: string;
}

export interface RenderedText {
  /** The rendered objects as multi-document YAML, as `kustomize build` or `helm template` print them. */
  readonly text: string;
  /** Sorted by `rendered.start`; for a rendered span, the innermost mapping that contains it wins (`sourceOf`). */
  readonly mappings: readonly SourceMapping[];
}

/** A problem met while rendering (an unreadable patch, a tool error, a feature not evaluated), on a source file. */
export interface RenderProblem {
  readonly uri: string;
  readonly span: Span;
  readonly severity: 'error' | 'warning' | 'information';
  readonly code: string;
  /** In English; `phrase`, when set, is the same message to be worded in the locale of the finding (l10n.ts). */
  readonly message: string;
  readonly phrase?: Phrase;
}

export interface RenderedUnit {
  readonly kind: 'kustomize' | 'helm';
  /** Stable across renders: `kustomize:<root uri>`, `helm:<chart uri>#<value set>`. */
  readonly id: string;
  /** For people: `overlays/prod`, `chart shop, values ci/prod-values.yaml`. */
  readonly label: string;
  /** The file that defines the unit: the root kustomization, the chart's Chart.yaml. */
  readonly definedBy: string;
  /** Every workspace file the render read: an edit of one of them renders the unit again. */
  readonly inputs: readonly string[];
  /** Undefined when rendering failed or was not possible (then `problems` says why). */
  readonly rendered?: RenderedText;
  readonly problems: readonly RenderProblem[];
  /** What the templates of a Helm render take from the cluster (`lookup`, `.Capabilities`), which the render lacks. */
  readonly clusterDependences?: readonly ClusterDependence[];
}

/** What a manifest file made from a rendered unit's text knows of it (`ManifestFile.rendered`). */
export interface RenderedSource {
  /** `RenderedUnit.id`. */
  readonly unitId: string;
  /** `RenderedUnit.label`: `overlays/prod`. */
  readonly label: string;
  /** `RenderedUnit.definedBy`: the root kustomization. */
  readonly definedBy: string;
  readonly text: RenderedText;
}

/**
 * The file a URI stands for when places are compared by folder: a render's URI (`…/chart/#helm/values.yaml`,
 * `…/overlay/kustomization.yaml#rendered`) stands for a file in its folder; a workspace file for itself.
 */
export function renderSource(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : `${uri.slice(0, hash).replace(/\/$/, '')}/_`;
}

/** The URI of the manifest file holding a unit's rendered text: never a workspace file. */
export function renderedFileUri(definedBy: string): string {
  return `${definedBy}#rendered`;
}

/** The innermost mapping whose rendered span contains `span`, if any. */
export function sourceOf(text: RenderedText, span: Span): SourceMapping | undefined {
  const m = text.mappings;
  // Mappings are sorted by start; every candidate starts at or before span.start.
  let lo = 0;
  let hi = m.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (m[mid].rendered.start <= span.start) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  let best: SourceMapping | undefined;
  for (let i = last; i >= 0; i--) {
    const r = m[i].rendered;
    if (r.end < span.end) continue;
    if (!best || r.end - r.start < best.rendered.end - best.rendered.start) best = m[i];
    // A mapping that starts at 0 and contains the span is the outermost possible; nothing earlier can be smaller.
    if (r.start === 0) break;
  }
  return best;
}

/**
 * What one run of an external renderer (helm, the real Kustomize) gave: workspace/externalTool.ts makes it,
 * workspace/helm.ts and kustomize/external.ts turn it into a RenderedUnit.
 */
export interface ToolExit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** The process could not be started (ENOENT, EACCES…). */
  readonly spawnError?: string;
  /** The output went over the runner's cap: the run was stopped and its output is not read. */
  readonly tooLarge?: boolean;
}

/** The suffix kustomize/applyUnits.ts gives a base built apart from the overlays that include it. */
export const builtAloneSuffix = ', built on its own';

/** A build's label (`overlays/prod`, `base, built on its own`) in the words of `msg`. */
export function buildLabel(label: string, msg: Msg): string {
  return label.endsWith(builtAloneSuffix) ? msg('{0}, built on its own', label.slice(0, -builtAloneSuffix.length)) : label;
}
