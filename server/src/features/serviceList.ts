// listServices: every Service with its type and endpoint count, for pickers and the trace view.

import type { Analysis } from '../analysis/analysis';
import { endpointCount } from '../analysis/endpoints';
import { lineIndex, type LineIndex } from '../model/lineIndex';
import type { ServiceSummary } from '../protocol';
import { sourceSpan } from './sourceSpan';

export function listServices(analysis: Analysis): ServiceSummary[] {
  const texts = new Map(analysis.cluster.files.map((f) => [f.uri, f.text]));
  const indexes = new Map<string, LineIndex>();
  const linesOf = (uri: string): LineIndex => {
    let l = indexes.get(uri);
    if (!l) indexes.set(uri, (l = lineIndex(texts.get(uri) ?? '')));
    return l;
  };
  return analysis.cluster.services
    // semantics §9.4: a Service the API server rejects never exists, so there is nothing to trace.
    .filter((s) => analysis.cluster.rejected('Service', s.namespace, s.name) !== s)
    .map((s) => {
      const variant = analysis.scopeOf(s.uri).label;
      return {
        namespace: s.namespace,
        name: s.name,
        type: s.headless ? 'Headless' : s.type,
        endpoints: s.type === 'ExternalName' ? undefined : endpointCount(analysis.endpointsOf(s)),
        source: sourceSpan(s.uri, s.nameSpan, linesOf(s.uri)),
        ...(variant ? { variant } : {}),
      };
    })
    .sort((a, b) => (a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1));
}
