// The registry: every rule, in one explicit list. Add a rule here, then run `npm run rules-doc`.

import { duplicateResource } from './duplicateResource';
import type { Rule } from './rule';
// --- workload, API and endpoint rules: imports
import { apiValidation } from './apiValidation';
import { endpointsNotMirrored } from './endpointsNotMirrored';
import { endpointsOrphan } from './endpointsOrphan';
import { externalnameIp } from './externalnameIp';
import { hostnetworkDnsPolicy } from './hostnetworkDnsPolicy';
import { ineffectiveField } from './ineffectiveField';
import { networkpolicyPeerSelectsNothing } from './networkpolicyPeerSelectsNothing';
import { networkpolicySelectsNothing } from './networkpolicySelectsNothing';
import { nodeportConflict } from './nodeportConflict';
import { podSubdomainUnresolved } from './podSubdomainUnresolved';
import { statefulsetNameTooLong } from './statefulsetNameTooLong';
import { workloadSelectorMismatch } from './workloadSelectorMismatch';
// --- end workload, API and endpoint rules: imports
// --- service, StatefulSet, Ingress and DNS rules: imports
import { dnsNameUnresolved } from './dnsNameUnresolved';
import { ingressBackendMissing } from './ingressBackendMissing';
import { peerDiscoveryNotReady } from './peerDiscoveryNotReady';
import { serviceNoEndpoints } from './serviceNoEndpoints';
import { servicePortNotExposed } from './servicePortNotExposed';
import { serviceSelectorEmpty } from './serviceSelectorEmpty';
import { serviceSelectorNoMatch } from './serviceSelectorNoMatch';
import { serviceTargetPortUnresolved } from './serviceTargetPortUnresolved';
import { statefulsetServiceMissing } from './statefulsetServiceMissing';
import { statefulsetServiceNotHeadless } from './statefulsetServiceNotHeadless';
import { statefulsetServiceNotSelecting } from './statefulsetServiceNotSelecting';
// --- end service, StatefulSet, Ingress and DNS rules: imports
// --- Gateway API rules: imports
import { gatewayHostnameMismatch } from './gatewayHostnameMismatch';
import { gatewayListenerNotFound } from './gatewayListenerNotFound';
import { gatewayParentMissing } from './gatewayParentMissing';
import { gatewayRouteNotAllowed } from './gatewayRouteNotAllowed';
import { gatewayTlsConfig } from './gatewayTlsConfig';
import { routeAllBackendsInvalid } from './routeAllBackendsInvalid';
import { routeBackendExternalname } from './routeBackendExternalname';
import { routeBackendMissing } from './routeBackendMissing';
import { routeBackendPort } from './routeBackendPort';
import { routeBackendRefgrant } from './routeBackendRefgrant';
// --- end Gateway API rules: imports

export const rules: readonly Rule[] = [
  duplicateResource,
  // --- workload, API and endpoint rules
  apiValidation,
  workloadSelectorMismatch,
  nodeportConflict,
  externalnameIp,
  ineffectiveField,
  statefulsetNameTooLong,
  podSubdomainUnresolved,
  hostnetworkDnsPolicy,
  endpointsOrphan,
  endpointsNotMirrored,
  networkpolicySelectsNothing,
  networkpolicyPeerSelectsNothing,
  // --- end workload, API and endpoint rules
  // --- service, StatefulSet, Ingress and DNS rules
  serviceSelectorNoMatch,
  serviceSelectorEmpty,
  serviceNoEndpoints,
  serviceTargetPortUnresolved,
  servicePortNotExposed,
  statefulsetServiceMissing,
  statefulsetServiceNotHeadless,
  statefulsetServiceNotSelecting,
  peerDiscoveryNotReady,
  ingressBackendMissing,
  dnsNameUnresolved,
  // --- end service, StatefulSet, Ingress and DNS rules
  // --- Gateway API rules
  gatewayParentMissing,
  gatewayListenerNotFound,
  gatewayRouteNotAllowed,
  gatewayHostnameMismatch,
  routeBackendMissing,
  routeBackendPort,
  routeBackendRefgrant,
  routeBackendExternalname,
  routeAllBackendsInvalid,
  gatewayTlsConfig,
  // --- end Gateway API rules
];

export function ruleByCode(code: string): Rule | undefined {
  return rules.find((r) => r.code === code);
}
