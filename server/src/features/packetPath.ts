// The hops a packet takes from a client pod to one endpoint, per CNI plugin, each with one line a newcomer learns from.

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
  const zone = config.clusterDomain.replace(/\.+$/, '');
  const ns = service.namespace;
  const dns = hop('dns-lookup', 'client-pod', 'DNS lookup',
    `The app asks CoreDNS (Service kube-dns in kube-system) for "${service.name}"; with ndots:5 the resolver first tries the suffixes ${ns}.svc.${zone}, svc.${zone} and ${zone}, so "${service.name}" becomes ${service.name}.${ns}.svc.${zone}. ` +
      (service.type === 'ExternalName' ? `CoreDNS answers with a CNAME to ${target.externalName ?? 'the external name'}.` : service.headless ? 'Because the Service is headless, the answer is the ready pods\' own IPs.' : 'The answer is the Service\'s cluster IP, a virtual address no interface owns.'));
  const eth0 = hop('client-eth0', 'client-pod', 'eth0 (client pod)', `The packet leaves the client pod's network namespace through eth0, addressed to the ${service.type === 'ExternalName' ? 'external host' : service.headless ? 'pod IP' : 'cluster IP'}.`);
  const veth = hop('client-veth', 'client-node', 'veth pair', 'eth0 is one end of a veth pair; the other end sits in the node\'s root network namespace, so the packet is now on the node.');
  if (service.type === 'ExternalName') {
    const out = hop('egress', 'wire', `to ${target.externalName ?? 'the external host'}`, 'The connection goes straight to the external host, usually with its source rewritten to the node\'s IP; nothing in the cluster proxies it or remaps ports.');
    return { cni: config.cni, sameNode: [dns, eth0, veth, out], crossNode: [dns, eth0, veth, out] };
  }
  const dnat = service.headless
    ? hop('no-proxy', 'client-node', 'no kube-proxy', 'Headless Services have no cluster IP, so kube-proxy has no rule for them: the packet already carries the pod IP from DNS.')
    : config.cni === 'cilium'
      ? hop('dnat', 'client-node', 'eBPF service lookup', 'Cilium\'s eBPF program replaces kube-proxy: it swaps the cluster IP for one ready pod IP and port as the packet leaves the pod (or already at connect time).')
      : hop('dnat', 'client-node', `kube-proxy DNAT (${config.proxyMode})`, proxyLine(config));
  const ports = target.containerPorts.join(', ');
  const portNoun = target.containerPorts.length === 1 ? 'port' : 'ports';
  const targetVeth = hop('target-veth', 'target-node', 'veth pair (target pod)', 'The packet enters the target pod\'s network namespace through its veth pair.');
  const targetEth0 = hop('target-eth0', 'target-pod', 'eth0 (target pod)', 'It arrives at the pod IP on the pod\'s eth0.');
  const port = hop('container-port', 'target-pod', ports ? `container ${portNoun} ${ports}` : 'container port',
    `The process listening on ${ports ? `${portNoun} ${ports}` : 'the port the Service\'s targetPort names'} accepts the connection; replies retrace the path${service.headless ? '' : ' and conntrack undoes the DNAT'}.`);
  const local = localHop(config);
  const cross = crossNodeHops(config);
  const stop = target.stop;
  if (stop?.at === 'dns') {
    const end = stopHop('client-pod', 'no address: the packet is never sent', stop.why);
    return { cni: config.cni, sameNode: [dns, end], crossNode: [dns, end] };
  }
  if (stop?.at === 'proxy') {
    const end = stopHop('client-node', service.headless ? 'no endpoint' : 'no endpoint to DNAT to', `${stop.why} ${noEndpointLine(config)}`);
    return { cni: config.cni, sameNode: [dns, eth0, veth, end], crossNode: [dns, eth0, veth, end] };
  }
  if (stop?.at === 'policy') {
    const end = stopHop('target-node', 'dropped by NetworkPolicy', stop.why);
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
function noEndpointLine(config: AnalysisConfig): string {
  if (config.cni === 'cilium') return 'Cilium\'s service lookup finds no backend and drops or rejects the packet, so the client sees "connection refused" or a timeout, depending on its configuration.';
  if (config.proxyMode === 'ipvs') return 'The IPVS virtual server has no real server; the client sees "connection refused" or, with some kube-proxy versions, waits until the connection times out.';
  return `kube-proxy's ${config.proxyMode} rules reject connections to a Service port without endpoints, so the client sees "connection refused" at once.`;
}

function hop(id: string, zone: PacketHop['zone'], label: string, explanation: string): PacketHop {
  return { id, zone, label, explanation };
}

function proxyLine(config: AnalysisConfig): string {
  switch (config.proxyMode) {
    case 'ipvs':
      return 'On the client\'s own node, an IPVS virtual server for the cluster IP forwards the connection to one ready pod IP and port (round robin by default).';
    case 'nftables':
      return 'On the client\'s own node, kube-proxy\'s nftables maps rewrite the destination from the cluster IP to one ready pod IP and port, picked at random; conntrack remembers the choice.';
    default:
      return 'On the client\'s own node, kube-proxy\'s iptables rules rewrite the destination from the cluster IP to one ready pod IP and port, picked at random; conntrack remembers the choice.';
  }
}

/** How a packet reaches a pod on the same node. */
function localHop(config: AnalysisConfig): PacketHop {
  if (config.cni.startsWith('calico')) return hop('local-route', 'client-node', 'host route to cali* veth', 'Calico uses no bridge: the node has a route per pod IP pointing at that pod\'s cali* veth, and routes the packet there.');
  if (config.cni === 'cilium') return hop('local-ebpf', 'client-node', 'eBPF redirect', 'Cilium\'s eBPF program redirects the packet straight to the target pod\'s veth, enforcing NetworkPolicy on the way; no bridge, no iptables.');
  if (config.cni === 'generic') return hop('local-bridge', 'client-node', 'node bridge (cni0/cbr0)', 'Pods on one node usually share a bridge (or per-pod routes); the packet is switched to the target pod\'s veth without leaving the node.');
  return hop('local-bridge', 'client-node', 'cni0 bridge', 'Flannel plugs every pod\'s veth into the cni0 bridge; the bridge switches the packet to the target pod\'s veth without leaving the node.');
}

function crossNodeHops(config: AnalysisConfig): PacketHop[] {
  switch (config.cni) {
    case 'flannel-vxlan':
      return [
        hop('bridge', 'client-node', 'cni0 bridge', 'The cni0 bridge is the pods\' gateway; the destination is in another node\'s pod subnet, so the node routes it.'),
        hop('vtep-out', 'client-node', 'flannel.1 VTEP', 'The route for the other node\'s pod subnet points at flannel.1, which wraps the packet in VXLAN: UDP port 8472 addressed to the other node\'s IP.'),
        hop('wire', 'wire', 'UDP 8472 between nodes', 'The outer packet crosses the node network like any UDP datagram; firewalls between nodes must allow UDP 8472.'),
        hop('vtep-in', 'target-node', 'flannel.1 VTEP', 'The target node\'s flannel.1 unwraps the VXLAN packet and routes the inner one to its cni0 bridge.'),
        hop('target-bridge', 'target-node', 'cni0 bridge', 'The bridge switches the packet to the target pod\'s veth.'),
      ];
    case 'flannel-host-gw':
      return [
        hop('bridge', 'client-node', 'cni0 bridge', 'The cni0 bridge is the pods\' gateway; the destination is in another node\'s pod subnet, so the node routes it.'),
        hop('route', 'client-node', 'route via the target node', 'The node\'s route table sends the other node\'s pod subnet straight to that node\'s IP as the next hop; no encapsulation.'),
        hop('wire', 'wire', 'plain L2 hop', 'The unmodified packet goes to the target node, which only works when all nodes share one L2 network.'),
        hop('target-bridge', 'target-node', 'cni0 bridge', 'The target node routes the pod IP onto its cni0 bridge, which switches it to the pod\'s veth.'),
      ];
    case 'calico-bgp':
      return [
        hop('route', 'client-node', 'BGP-learned route', 'BIRD on each node has learned the other nodes\' pod IP blocks over BGP; the packet is routed to the owning node with no encapsulation.'),
        hop('wire', 'wire', 'routed pod IP packet', 'The packet crosses the network unchanged, so the network between nodes must route pod IPs (same L2, or BGP peering with the routers).'),
        hop('target-route', 'target-node', 'host route to cali* veth', 'The target node\'s per-pod route points the pod IP at its cali* veth.'),
      ];
    case 'calico-ipip':
      return [
        hop('tunnel-out', 'client-node', 'tunl0 (IP-in-IP)', 'Calico routes the other node\'s pod block through tunl0, which wraps the packet in an outer IP header addressed to that node.'),
        hop('wire', 'wire', 'IP-in-IP between nodes', 'The outer packet is IP protocol 4; firewalls and cloud security groups between nodes must allow it.'),
        hop('tunnel-in', 'target-node', 'tunl0', 'The target node\'s tunl0 strips the outer header.'),
        hop('target-route', 'target-node', 'host route to cali* veth', 'The per-pod route points the pod IP at its cali* veth.'),
      ];
    case 'calico-vxlan':
      return [
        hop('tunnel-out', 'client-node', 'vxlan.calico', 'Calico routes the other node\'s pod block through vxlan.calico, which wraps the packet in VXLAN (UDP 4789) addressed to that node.'),
        hop('wire', 'wire', 'UDP 4789 between nodes', 'The outer packet is plain UDP; firewalls between nodes must allow UDP 4789.'),
        hop('tunnel-in', 'target-node', 'vxlan.calico', 'The target node\'s vxlan.calico unwraps the packet.'),
        hop('target-route', 'target-node', 'host route to cali* veth', 'The per-pod route points the pod IP at its cali* veth.'),
      ];
    case 'cilium':
      return [
        hop('ebpf-out', 'client-node', 'eBPF datapath', 'Cilium\'s eBPF programs on the pod\'s veth do the forwarding and policy work that a bridge and iptables would otherwise do.'),
        hop('wire', 'wire', 'tunnel or native routing', 'Between nodes Cilium either tunnels (cilium_vxlan, UDP 8472, by default) or routes pod IPs natively, depending on its routing mode.'),
        hop('ebpf-in', 'target-node', 'eBPF on the target node', 'The target node\'s eBPF program delivers the packet straight to the pod\'s veth, enforcing NetworkPolicy there.'),
      ];
    default:
      return [
        hop('route', 'client-node', 'node routing', 'The node routes the packet towards the node that owns the destination pod\'s subnet; the CNI plugin decides how (an overlay tunnel or plain routes).'),
        hop('wire', 'wire', 'node-to-node network', 'The packet (possibly wrapped in a tunnel header) crosses the network between nodes.'),
        hop('target-route', 'target-node', 'node routing', 'The target node hands the packet to the pod\'s veth (through a bridge or a per-pod route).'),
      ];
  }
}
