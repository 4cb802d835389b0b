// IP literals as they appear in manifests: which family, and the DNS labels CoreDNS derives from them (semantics §1.4, §2.5).

export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

export function isIPv6(s: string): boolean {
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  return expandIPv6(s) !== undefined;
}

export function isIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

/**
 * The family of a CIDR as NetworkPolicy's ipBlock writes it (`192.168.1.0/24`, `2001:db8::/64`; netpol §5): the address
 * and a prefix length within the family's bits. Undefined for anything else (a bare address, a placeholder).
 */
export function cidrFamily(s: string): 'IPv4' | 'IPv6' | undefined {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(s.trim());
  if (!m) return undefined;
  const bits = Number(m[2]);
  if (isIPv4(m[1])) return bits <= 32 ? 'IPv4' : undefined;
  if (isIPv6(m[1])) return bits <= 128 ? 'IPv6' : undefined;
  return undefined;
}

/** semantics §1.4: `10.1.2.3` → `10-1-2-3`; IPv6 `:` → `-`, and a trailing `-` gets a `0` appended. */
export function dashedIP(ip: string): string {
  if (isIPv4(ip)) return ip.replace(/\./g, '-');
  const d = ip.toLowerCase().replace(/:/g, '-');
  return d.endsWith('-') ? `${d}0` : d;
}

/** The reverse-lookup name of an IP (`3.2.1.10.in-addr.arpa`, nibble form under `ip6.arpa`). */
export function reverseName(ip: string): string | undefined {
  if (isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const full = expandIPv6(ip);
  if (!full) return undefined;
  return `${full.join('').split('').reverse().join('.')}.ip6.arpa`;
}

/** Eight 4-digit hex groups, or undefined when the text is not an IPv6 address. */
function expandIPv6(s: string): string[] | undefined {
  let text = s.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded IPv4 tail (`::ffff:10.0.0.1`) stands for the last two groups.
    if (!isIPv4(last)) return undefined;
    const b = last.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = [...head, ...rest];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  if (halves.length === 1 && groups.length !== 8) return undefined;
  if (halves.length === 2 && groups.length > 7) return undefined;
  const fill = 8 - groups.length;
  const all = halves.length === 2 ? [...head, ...Array<string>(fill).fill('0'), ...rest] : groups;
  return all.map((g) => g.padStart(4, '0'));
}
