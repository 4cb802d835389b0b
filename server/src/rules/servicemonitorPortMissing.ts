// servicemonitor-port-missing: a ServiceMonitor endpoint port name that none of the selected Services has.

import { joinSentences, messages } from '../l10n/l10n';
import { isMonitoringVersion, isScrapeMonitor } from '../model/monitoring';
import { closestName } from './closestName';
import { firstRelated } from './finding';
import { selectedServices } from './monitorTargets';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { serviceMonitorExample } from './ruleExamples';

export const servicemonitorPortMissing = defineRule({
  code: 'servicemonitor-port-missing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'ServiceMonitor endpoint names a port none of its Services has',
  description: `A ServiceMonitor scrapes the endpoints of the Services its \`selector\` matches (by the Services' own labels, in the namespaces of its \`namespaceSelector\`: its own by default), and each \`endpoints[].port\` keeps only the endpoints of a **Service port of that name** (the Prometheus operator's relabelling on \`__meta_kubernetes_endpoint_port_name\`). A name none of the selected Services gives a port yields no targets: nothing is scraped, and no error says so. The port name must be the Service port's \`name\`, not the container port's nor a number (a number goes in the deprecated \`targetPort\`). A close name is offered as the fix. Stays quiet when the ServiceMonitor selects no Service in scope (\`servicemonitor-selects-nothing\` covers typos of the selector), and for endpoints chosen by \`targetPort\`.`,
  examples: { bad: serviceMonitorExample({ port: 'metric' }, true), good: serviceMonitorExample({}, true) },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isMonitoringVersion(r.apiVersion) || !isScrapeMonitor(r) || r.kind !== 'ServiceMonitor') continue;
      const services = selectedServices(lookup, r);
      if (!services.length) continue;
      const names = [...new Set(services.flatMap((s) => s.ports.flatMap((p) => (p.name ? [p.name] : []))))];
      for (const e of r.endpoints) {
        if (!e.port || !e.portSpan || e.byNumber || names.includes(e.port)) continue;
        const guess = closestName(e.port, names);
        const { related } = firstRelated(services, (s) => ({
          uri: s.uri,
          span: s.portsSpan ?? s.nameSpan,
          message: msg('The ports of Service "{0}"', s.name),
        }));
        const named = services
          .slice(0, 3)
          .map((s) => `"${s.name}"`)
          .join(', ');
        const shown = services.length > 3 ? msg('{0} and {1} more', named, services.length - 3) : named;
        yield {
          uri: r.uri,
          span: e.portSpan,
          message: joinSentences([
            msg(
              'ServiceMonitor "{0}" scrapes port "{1}" of the Services it selects ({2}), but none of them has a port of that name (their port names: {3}), so it finds no targets and nothing is scraped.',
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
