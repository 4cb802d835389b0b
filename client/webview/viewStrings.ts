// Every word the trace view writes itself, as English templates passed to `l10n.t` (the one message catalogue of
// docs/localization.md: test/l10n/catalogue.test.ts scans these calls like the client's). The panel host fills them
// with `vscode.l10n` and puts the result into the page (client/src/traceHtml.ts); the view reads it (words.ts) and
// falls back to the English templates for anything missing. Placeholders `{0}` … stay in the strings: the view fills
// them (words.ts `fill`) with names, counts and kinds, which are never translated.

/** `vscode.l10n` in the host; the identity (the English templates themselves) in the view. */
export interface Translate {
  t(message: string): string;
}

export function viewStrings(l10n: Translate) {
  return {
    page: {
      title: l10n.t('Trace'),
      noScript: l10n.t('The trace view needs scripts to draw the Service path.'),
    },
    toolbar: {
      views: l10n.t('Views'),
      servicePath: l10n.t('Service path'),
      packetPath: l10n.t('Packet path'),
      listView: l10n.t('List view'),
      zoomOut: l10n.t('Zoom out'),
      zoomOutKey: l10n.t('Zoom out (-)'),
      zoomIn: l10n.t('Zoom in'),
      zoomInKey: l10n.t('Zoom in (+)'),
      fitLabel: l10n.t('Fit to window'),
      fitKey: l10n.t('Fit to window (0)'),
      fit: l10n.t('Fit'),
      chooseClient: l10n.t('Choose client… ▾'),
      client: l10n.t('Client: {0} ▾'),
      clientLabel: l10n.t('Client: {0}. Choose another client'),
      chooseClientLabel: l10n.t('Choose a client whose connections the NetworkPolicies are checked for'),
      copyMermaid: l10n.t('Copy as Mermaid'),
      saveSvg: l10n.t('Save as SVG'),
    },
    title: {
      documentTitle: l10n.t('Trace: {0}'),
      variant: l10n.t('{0} (variant {1})'),
    },
    state: {
      failed: l10n.t('The trace failed.'),
      tracing: l10n.t('Tracing…'),
      unreadable: l10n.t('The trace data could not be read.'),
    },
    banner: {
      broken: l10n.t('✖ No request can reach a pod: the path is broken.'),
      noEndpoints: l10n.t('✖ No request can reach a pod: no endpoints.'),
      stopsAt: l10n.t('✖ No request can reach a pod: it stops at {0}.'),
      show: l10n.t('Show'),
    },
    canvas: {
      label: l10n.t(
        'Drawing of the Service path. Click a box to select it; double-click or Enter opens its YAML. Tab or arrow keys move between boxes; plus and minus zoom; drag to pan.',
      ),
      drawing: l10n.t('Service path of {0}'),
      list: l10n.t('The Service path as a list'),
      details: l10n.t('Details of the selected box'),
    },
    legend: {
      label: l10n.t('Legend'),
      blocked: l10n.t('traffic blocked'),
      hint: l10n.t('Click: details · double-click or Enter: open YAML'),
      showDetails: l10n.t('Show details'),
      hideDetails: l10n.t('Hide details'),
    },
    column: {
      listener: l10n.t('Gateway listener'),
      route: l10n.t('Route rule'),
      entry: l10n.t('How clients reach it'),
      service: l10n.t('Service'),
      proxy: l10n.t('kube-proxy'),
      endpoints: l10n.t('Endpoints (pods)'),
      port: l10n.t('Container port'),
      policy: l10n.t('NetworkPolicy'),
    },
    kind: {
      'gateway-listener': l10n.t('Gateway listener'),
      'route-rule': l10n.t('Route rule'),
      'backend-ref': l10n.t('Route backend'),
      client: l10n.t('Client'),
      dns: l10n.t('DNS name'),
      nodeport: l10n.t('NodePort'),
      loadbalancer: l10n.t('LoadBalancer'),
      ingress: l10n.t('Ingress rule'),
      'external-ip': l10n.t('External IP'),
      service: l10n.t('Service'),
      'external-name': l10n.t('ExternalName'),
      'kube-proxy': l10n.t('kube-proxy'),
      workload: l10n.t('Endpoint group'),
      'manual-endpoints': l10n.t('Manual endpoints'),
      'no-endpoints': l10n.t('No endpoints'),
      'container-port': l10n.t('Container port'),
      'network-policy': l10n.t('NetworkPolicy'),
    },
    status: {
      ok: l10n.t('works'),
      conditional: l10n.t('works under conditions'),
      warning: l10n.t('warning'),
      error: l10n.t('broken'),
    },
    /** The status line of the detail pane: the status word as a sentence's start. */
    statusLine: {
      ok: l10n.t('Works'),
      conditional: l10n.t('Works under conditions'),
      warning: l10n.t('Warning'),
      error: l10n.t('Broken'),
    },
    edge: {
      ok: l10n.t('passes'),
      conditional: l10n.t('passes under conditions'),
      broken: l10n.t('blocked'),
    },
    severity: {
      error: l10n.t('error'),
      warning: l10n.t('warning'),
      information: l10n.t('information'),
      hint: l10n.t('hint'),
    },
    zone: {
      'client-pod': l10n.t('Client pod'),
      'client-node': l10n.t('Client node'),
      wire: l10n.t('Node network'),
      'target-node': l10n.t('Target node'),
      'target-pod': l10n.t('Target pod'),
    },
    box: {
      reachesSome: l10n.t('✓ reaches some pods'),
      blockedEverywhere: l10n.t('✖ blocked at every pod'),
      reachUnknown: l10n.t('◐ reach unknown'),
      admitted: l10n.t('✓ client admitted'),
      admittedBy: l10n.t('✓ client admitted · {0}'),
      blocked: l10n.t('✖ client blocked'),
      blockedBy: l10n.t('✖ client blocked by {0}'),
      unknown: l10n.t('◐ client: unknown'),
      moreFindings: l10n.t('+{0} more findings'),
      pod: l10n.t('{0} pod'),
      pods: l10n.t('{0} pods'),
      readyOnly: l10n.t('Ready only'),
      notReadyToo: l10n.t('incl. not Ready'),
    },
    detail: {
      hint: l10n.t('Select a box (click it, or Tab and arrow keys) to see its details; double-click it or press Enter to open its YAML.'),
      open: l10n.t('Open in editor'),
      title: l10n.t('{0}: {1}'),
      findings: l10n.t('Findings'),
      error: l10n.t('✖ Error'),
      warning: l10n.t('⚠ Warning'),
      pod: l10n.t('{0} pod. {1}'),
      pods: l10n.t('{0} pods. {1}'),
      readyOnly: l10n.t('Only Ready pods receive traffic.'),
      notReadyToo: l10n.t('Pods receive traffic even before they are Ready (publishNotReadyAddresses).'),
      stableNames: l10n.t('Stable names: {0}'),
      stableNamesMore: l10n.t('Stable names: {0} and {1} more'),
      leadsTo: l10n.t('Leads to'),
      definedIn: l10n.t('Defined in {0}, line {1}'),
    },
    describe: {
      node: l10n.t('{0}. Status: {1}.'),
      nodeWithPods: l10n.t('{0}, {1} pods. Status: {2}.'),
    },
    packet: {
      notService: l10n.t('This {0} hands requests to Services; the packet path from a client pod to a pod is drawn in the trace of each of those Services.'),
      none: l10n.t('No packet path for this Service (an ExternalName Service is answered by DNS alone, so no packet reaches a pod through it).'),
      intro: l10n.t('A request from a client pod to one endpoint, with the {0} network plugin.'),
      introGeneric: l10n.t('A request from a client pod to one endpoint, with the generic network plugin.'),
      where: l10n.t('Where the target pod runs'),
      sameNode: l10n.t('Target pod on the same node'),
      crossNode: l10n.t('Target pod on another node'),
      drawing: l10n.t('Packet path: {0}'),
    },
  };
}

export type ViewStrings = ReturnType<typeof viewStrings>;
