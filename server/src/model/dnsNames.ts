// The shapes of DNS names the API server accepts (semantics §6): the one spelling of each pattern, for validation,
// settings, the config file and the command line. Lengths are checked where the limit is known (63 for a label).

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Whether a name has the shape of a DNS-1123 label (a namespace name, a Helm release name); not its length. */
export function isDns1123Label(v: string): boolean {
  return dns1123Label.test(v);
}

/** Whether a name has the shape of a DNS-1123 subdomain (a cluster domain, an object name); not its length. */
export function isDns1123Subdomain(v: string): boolean {
  return dns1123Subdomain.test(v);
}
