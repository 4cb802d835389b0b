// podmonitor-port-missing: a PodMonitor endpoint port name that no container of the selected pods declares.

import { joinSentences, messages } from '../l10n/l10n';
import { isMonitoringVersion, isScrapeMonitor } from '../model/monitoring';
import { closestName } from './closestName';
import { firstRelated } from './finding';
import { selectedWorkloads } from './monitorTargets';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { podMonitorExample } from './ruleExamples';

export const podmonitorPortMissing = defineRule({
  code: 'podmonitor-port-missing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'PodMonitor endpoint names a port no container of its pods declares',
  description: `A PodMonitor scrapes the pods its \`selector\` matches (in the namespaces of its \`namespaceSelector\`: its own by default), and each \`podMetricsEndpoints[].port\` keeps only the **container ports of that name** (the Prometheus operator's relabelling on \`__meta_kubernetes_pod_container_port_name\`). A name no container of the selected pods declares yields no targets, silently. A close name is offered as the fix. Stays quiet when the PodMonitor selects no pod template in scope, and for endpoints chosen by \`portNumber\` or \`targetPort\`.`,
  examples: { bad: podMonitorExample({ port: 'metric' }), good: podMonitorExample() },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isMonitoringVersion(r.apiVersion) || !isScrapeMonitor(r) || r.kind !== 'PodMonitor') continue;
      const workloads = selectedWorkloads(lookup, r);
      if (!workloads.length) continue;
      const names = [...new Set(workloads.flatMap((w) => w.template.containers.flatMap((c) => c.ports.flatMap((p) => (p.name ? [p.name] : [])))))];
      for (const e of r.endpoints) {
        if (!e.port || !e.portSpan || e.byNumber || names.includes(e.port)) continue;
        const guess = closestName(e.port, names);
        const { related } = firstRelated(workloads, (w) => ({ uri: w.uri, span: w.nameSpan, message: msg('The containers of {0} "{1}"', w.kind, w.name) }));
        const named = workloads
          .slice(0, 3)
          .map((w) => `${w.kind} "${w.name}"`)
          .join(', ');
        const shown = workloads.length > 3 ? msg('{0} and {1} more', named, workloads.length - 3) : named;
        yield {
          uri: r.uri,
          span: e.portSpan,
          message: joinSentences([
            msg(
              'PodMonitor "{0}" scrapes container port "{1}" of the pods it selects ({2}), but no container there declares a port of that name (their port names: {3}), so it finds no targets and nothing is scraped.',
              r.name,
              e.port,
              shown,
              names.length ? names.map((n) => `"${n}"`).join(', ') : msg('none'),
            ),
            ...(guess ? [msg('Did you mean "{0}"?', guess.name)] : []),
          ]),
          resource: refOf(r),
          related,
          fixes: guess
            ? [
                {
                  title: msg('Scrape port "{0}"', guess.name),
                  edits: [{ uri: r.uri, span: e.portSpan, newText: guess.name }],
                  isPreferred: guess.clear || undefined,
                },
              ]
            : [],
        };
      }
    }
  },
});
