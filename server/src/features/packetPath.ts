// The hops a packet takes from a client pod to one endpoint, per CNI plugin, each with one line a newcomer learns from.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { AnalysisConfig } from '../model/config';
import type { Service } from '../model/resources';
import type { PacketHop, PacketPath } from '../protocol';

export interface PacketTarget {
  /** The container port(s) the connection lands on, e.g. `8080`; empty when unknown. */
  readonly containerPorts: readonly number[];
  readonly externalName?: string;
  /** Set when the Service path says no packet gets through: the path ends where it stops, saying why. */
  readonly stop?: PacketStop;
}

export interface PacketStop {
  /** `dns`: no address to send to; `proxy`: no endpoint to DNAT to; `policy`: dropped in front of the pod. */
  readonly at: 'dns' | 'proxy' | 'policy';
  /** A finished sentence: why the packet stops there. */
  readonly why: string;
}

export function packetPathFor(service: Service, config: AnalysisConfig, target: PacketTarget): PacketPath {
  const msg = messages(config.locale);
  const zone = config.clusterDomain.replace(/\.+$/, '');
  const ns = service.namespace;
  const answer =
    service.type === 'ExternalName'
      ? target.externalName !== undefined
        ? msg('CoreDNS answers with a CNAME to {0}.', target.externalName)
        : msg('CoreDNS answers with a CNAME to the external name.')
      : service.headless
        ? msg("Because the Service is headless, the answer is the ready pods' own IPs.")
        : msg("The answer is the Service's cluster IP, a virtual address no interface owns.");
  const dns = hop(
    'dns-lookup',
    'client-pod',
    msg('DNS lookup'),
    joinSentences([
      msg(
        'The app asks CoreDNS (Service kube-dns in kube-system) for "{0}"; with ndots:5 the resolver first tries the suffixes {1}.svc.{2}, svc.{2} and {2}, so "{0}" becomes {0}.{1}.svc.{2}.',
        service.name,
        ns,
        zone,
      ),
      answer,
    ]),
  );
  const eth0 = hop(
    'client-eth0',
    'client-pod',
    msg('eth0 (client pod)'),
    service.type === 'ExternalName'
      ? msg("The packet leaves the client pod's network namespace through eth0, addressed to the external host.")
      : service.headless
        ? msg("The packet leaves the client pod's network namespace through eth0, addressed to the pod IP.")
        : msg("The packet leaves the client pod's network namespace through eth0, addressed to the cluster IP."),
  );
  const veth = hop(
    'client-veth',
    'client-node',
    msg('veth pair'),
    msg("eth0 is one end of a veth pair; the other end sits in the node's root network namespace, so the packet is now on the node."),
  );
  if (service.type === 'ExternalName') {
    const out = hop(
      'egress',
      'wire',
      target.externalName !== undefined ? msg('to {0}', target.externalName) : msg('to the external host'),
      msg(
        "The connection goes straight to the external host, usually with its source rewritten to the node's IP; nothing in the cluster proxies it or remaps ports.",
      ),
    );
    return { cni: config.cni, sameNode: [dns, eth0, veth, out], crossNode: [dns, eth0, veth, out] };
  }
  const dnat = service.headless
    ? hop(
        'no-proxy',
        'client-node',
        msg('no kube-proxy'),
        msg('Headless Services have no cluster IP, so kube-proxy has no rule for them: the packet already carries the pod IP from DNS.'),
      )
    : config.cni === 'cilium'
      ? hop(
          'dnat',
          'client-node',
          msg('eBPF service lookup'),
          msg(
            "Cilium's eBPF program replaces kube-proxy: it swaps the cluster IP for one ready pod IP and port as the packet leaves the pod (or already at connect time).",
          ),
        )
      : hop('dnat', 'client-node', `kube-proxy DNAT (${config.proxyMode})`, proxyLine(config, msg));
  const ports = target.containerPorts.join(', ');
  const one = target.containerPorts.length === 1;
  const targetVeth = hop(
    'target-veth',
    'target-node',
    msg('veth pair (target pod)'),
    msg("The packet enters the target pod's network namespace through its veth pair."),
  );
  const targetEth0 = hop('target-eth0', 'target-pod', msg('eth0 (target pod)'), msg("It arrives at the pod IP on the pod's eth0."));
  const listening = !ports
    ? msg("The process listening on the port the Service's targetPort names accepts the connection")
    : one
      ? msg('The process listening on port {0} accepts the connection', ports)
      : msg('The process listening on ports {0} accepts the connection', ports);
  const port = hop(
    'container-port',
    'target-pod',
    !ports ? msg('container port') : one ? msg('container port {0}', ports) : msg('container ports {0}', ports),
    service.headless ? msg('{0}; replies retrace the path.', listening) : msg('{0}; replies retrace the path and conntrack undoes the DNAT.', listening),
  );
  const local = localHop(config, msg);
  const cross = crossNodeHops(config, msg);
  const stop = target.stop;
  if (stop?.at === 'dns') {
    const end = stopHop('client-pod', msg('no address: the packet is never sent'), stop.why);
    return { cni: config.cni, sameNode: [dns, end], crossNode: [dns, end] };
  }
  if (stop?.at === 'proxy') {
    const end = stopHop(
      'client-node',
      service.headless ? msg('no endpoint') : msg('no endpoint to DNAT to'),
      joinSentences([stop.why, noEndpointLine(config, msg)]),
    );
    return { cni: config.cni, sameNode: [dns, eth0, veth, end], crossNode: [dns, eth0, veth, end] };
  }
  if (stop?.at === 'policy') {
    const end = stopHop('target-node', msg('dropped by NetworkPolicy'), stop.why);
    return { cni: config.cni, sameNode: [dns, eth0, veth, dnat, local, end], crossNode: [dns, eth0, veth, dnat, ...cross, end] };
  }
  return {
    cni: config.cni,
    sameNode: [dns, eth0, veth, dnat, local, targetVeth, targetEth0, port],
    crossNode: [dns, eth0, veth, dnat, ...cross, targetVeth, targetEth0, port],
  };
}

function stopHop(zone: PacketHop['zone'], label: string, explanation: string): PacketHop {
  return { id: 'stop', zone, label: `✖ ${label}`, explanation, stop: true };
}

/** What the client sees when kube-proxy (or its replacement) has no endpoint for a cluster IP and port. */
function noEndpointLine(config: AnalysisConfig, msg: Msg): string {
  if (config.cni === 'cilium')
    return msg(
      'Cilium\'s service lookup finds no backend and drops or rejects the packet, so the client sees "connection refused" or a timeout, depending on its configuration.',
    );
  if (config.proxyMode === 'ipvs')
    return msg(
      'The IPVS virtual server has no real server; the client sees "connection refused" or, with some kube-proxy versions, waits until the connection times out.',
    );
  return msg(
    'kube-proxy\'s {0} rules reject connections to a Service port without endpoints, so the client sees "connection refused" at once.',
    config.proxyMode,
  );
}

function hop(id: string, zone: PacketHop['zone'], label: string, explanation: string): PacketHop {
  return { id, zone, label, explanation };
}

function proxyLine(config: AnalysisConfig, msg: Msg): string {
  switch (config.proxyMode) {
    case 'ipvs':
      return msg(
        "On the client's own node, an IPVS virtual server for the cluster IP forwards the connection to one ready pod IP and port (round robin by default).",
      );
    case 'nftables':
      return msg(
        "On the client's own node, kube-proxy's nftables maps rewrite the destination from the cluster IP to one ready pod IP and port, picked at random; conntrack remembers the choice.",
      );
    default:
      return msg(
        "On the client's own node, kube-proxy's iptables rules rewrite the destination from the cluster IP to one ready pod IP and port, picked at random; conntrack remembers the choice.",
      );
  }
}

/** How a packet reaches a pod on the same node. */
function localHop(config: AnalysisConfig, msg: Msg): PacketHop {
  if (config.cni.startsWith('calico'))
    return hop(
      'local-route',
      'client-node',
      msg('host route to cali* veth'),
      msg("Calico uses no bridge: the node has a route per pod IP pointing at that pod's cali* veth, and routes the packet there."),
    );
  if (config.cni === 'cilium')
    return hop(
      'local-ebpf',
      'client-node',
      msg('eBPF redirect'),
      msg("Cilium's eBPF program redirects the packet straight to the target pod's veth, enforcing NetworkPolicy on the way; no bridge, no iptables."),
    );
  if (config.cni === 'generic')
    return hop(
      'local-bridge',
      'client-node',
      msg('node bridge (cni0/cbr0)'),
      msg("Pods on one node usually share a bridge (or per-pod routes); the packet is switched to the target pod's veth without leaving the node."),
    );
  return hop(
    'local-bridge',
    'client-node',
    msg('cni0 bridge'),
    msg("Flannel plugs every pod's veth into the cni0 bridge; the bridge switches the packet to the target pod's veth without leaving the node."),
  );
}

function crossNodeHops(config: AnalysisConfig, msg: Msg): PacketHop[] {
  switch (config.cni) {
    case 'flannel-vxlan':
      return [
        hop(
          'bridge',
          'client-node',
          msg('cni0 bridge'),
          msg("The cni0 bridge is the pods' gateway; the destination is in another node's pod subnet, so the node routes it."),
        ),
        hop(
          'vtep-out',
          'client-node',
          msg('flannel.1 VTEP'),
          msg(
            "The route for the other node's pod subnet points at flannel.1, which wraps the packet in VXLAN: UDP port 8472 addressed to the other node's IP.",
          ),
        ),
        hop(
          'wire',
          'wire',
          msg('UDP 8472 between nodes'),
          msg('The outer packet crosses the node network like any UDP datagram; firewalls between nodes must allow UDP 8472.'),
        ),
        hop(
          'vtep-in',
          'target-node',
          msg('flannel.1 VTEP'),
          msg("The target node's flannel.1 unwraps the VXLAN packet and routes the inner one to its cni0 bridge."),
        ),
        hop('target-bridge', 'target-node', msg('cni0 bridge'), msg("The bridge switches the packet to the target pod's veth.")),
      ];
    case 'flannel-host-gw':
      return [
        hop(
          'bridge',
          'client-node',
          msg('cni0 bridge'),
          msg("The cni0 bridge is the pods' gateway; the destination is in another node's pod subnet, so the node routes it."),
        ),
        hop(
          'route',
          'client-node',
          msg('route via the target node'),
          msg("The node's route table sends the other node's pod subnet straight to that node's IP as the next hop; no encapsulation."),
        ),
        hop('wire', 'wire', msg('plain L2 hop'), msg('The unmodified packet goes to the target node, which only works when all nodes share one L2 network.')),
        hop(
          'target-bridge',
          'target-node',
          msg('cni0 bridge'),
          msg("The target node routes the pod IP onto its cni0 bridge, which switches it to the pod's veth."),
        ),
      ];
    case 'calico-bgp':
      return [
        hop(
          'route',
          'client-node',
          msg('BGP-learned route'),
          msg("BIRD on each node has learned the other nodes' pod IP blocks over BGP; the packet is routed to the owning node with no encapsulation."),
        ),
        hop(
          'wire',
          'wire',
          msg('routed pod IP packet'),
          msg('The packet crosses the network unchanged, so the network between nodes must route pod IPs (same L2, or BGP peering with the routers).'),
        ),
        hop('target-route', 'target-node', msg('host route to cali* veth'), msg("The target node's per-pod route points the pod IP at its cali* veth.")),
      ];
    case 'calico-ipip':
      return [
        hop(
          'tunnel-out',
          'client-node',
          msg('tunl0 (IP-in-IP)'),
          msg("Calico routes the other node's pod block through tunl0, which wraps the packet in an outer IP header addressed to that node."),
        ),
        hop(
          'wire',
          'wire',
          msg('IP-in-IP between nodes'),
          msg('The outer packet is IP protocol 4; firewalls and cloud security groups between nodes must allow it.'),
        ),
        hop('tunnel-in', 'target-node', msg('tunl0'), msg("The target node's tunl0 strips the outer header.")),
        hop('target-route', 'target-node', msg('host route to cali* veth'), msg('The per-pod route points the pod IP at its cali* veth.')),
      ];
    case 'calico-vxlan':
      return [
        hop(
          'tunnel-out',
          'client-node',
          msg('vxlan.calico'),
          msg("Calico routes the other node's pod block through vxlan.calico, which wraps the packet in VXLAN (UDP 4789) addressed to that node."),
        ),
        hop('wire', 'wire', msg('UDP 4789 between nodes'), msg('The outer packet is plain UDP; firewalls between nodes must allow UDP 4789.')),
        hop('tunnel-in', 'target-node', msg('vxlan.calico'), msg("The target node's vxlan.calico unwraps the packet.")),
        hop('target-route', 'target-node', msg('host route to cali* veth'), msg('The per-pod route points the pod IP at its cali* veth.')),
      ];
    case 'cilium':
      return [
        hop(
          'ebpf-out',
          'client-node',
          msg('eBPF datapath'),
          msg("Cilium's eBPF programs on the pod's veth do the forwarding and policy work that a bridge and iptables would otherwise do."),
        ),
        hop(
          'wire',
          'wire',
          msg('tunnel or native routing'),
          msg('Between nodes Cilium either tunnels (cilium_vxlan, UDP 8472, by default) or routes pod IPs natively, depending on its routing mode.'),
        ),
        hop(
          'ebpf-in',
          'target-node',
          msg('eBPF on the target node'),
          msg("The target node's eBPF program delivers the packet straight to the pod's veth, enforcing NetworkPolicy there."),
        ),
      ];
    default:
      return [
        hop(
          'route',
          'client-node',
          msg('node routing'),
          msg(
            "The node routes the packet towards the node that owns the destination pod's subnet; the CNI plugin decides how (an overlay tunnel or plain routes).",
          ),
        ),
        hop('wire', 'wire', msg('node-to-node network'), msg('The packet (possibly wrapped in a tunnel header) crosses the network between nodes.')),
        hop(
          'target-route',
          'target-node',
          msg('node routing'),
          msg("The target node hands the packet to the pod's veth (through a bridge or a per-pod route)."),
        ),
      ];
  }
}
