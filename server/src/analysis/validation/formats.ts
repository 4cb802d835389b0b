// The name and number formats the API server validates (semantics §6), each returning the reasons a value fails, in the API server's wording.

import { isIPv4 } from '../ip';
import { isDns1123Label, isDns1123Subdomain } from '../../model/dnsNames';

const dns1035LabelRe = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const qualifiedNameRe = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

const labelText = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const subdomainText =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1035Text =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

const tooLong = (n: number) => `must be no more than ${n} characters`;

const none: readonly string[] = Object.freeze([]);
/** Distinct strings a format remembers as valid; past this it starts again. */
const rememberedPerFormat = 4096;

/**
 * The format's check, answering at once for a string it already found valid: a workspace repeats its names, label
 * keys and values thousands of times, and every object is validated as it is read.
 */
function rememberingValid(check: (v: string) => string[]): (v: string) => readonly string[] {
  const valid = new Set<string>();
  return (v) => {
    if (valid.has(v)) return none;
    const errors = check(v);
    if (errors.length) return errors;
    if (valid.size >= rememberedPerFormat) valid.clear();
    valid.add(v);
    return none;
  };
}

/** DNS-1123 label: ≤63, lower-case alphanumerics and '-' (semantics §6). */
export const dns1123LabelErrors = rememberingValid((v: string): string[] => {
  const out: string[] = [];
  if (v.length > 63) out.push(tooLong(63));
  if (!isDns1123Label(v)) out.push(isDns1123Subdomain(v) && v.length <= 253 ? 'must not contain dots' : labelText);
  return out;
});

/** DNS-1123 subdomain: ≤253, dot-separated labels (semantics §6). */
export const dns1123SubdomainErrors = rememberingValid((v: string): string[] => {
  const out: string[] = [];
  if (v.length > 253) out.push(tooLong(253));
  if (!isDns1123Subdomain(v)) out.push(subdomainText);
  return out;
});

/** DNS-1035 label: a DNS-1123 label that starts with a letter; Service names use it (semantics §6.1). */
export const dns1035LabelErrors = rememberingValid((v: string): string[] => {
  const out: string[] = [];
  if (v.length > 63) out.push(tooLong(63));
  if (!dns1035LabelRe.test(v)) out.push(dns1035Text);
  return out;
});

/** IANA_SVC_NAME, the form of container port names and named targetPorts (semantics §6). */
export const portNameErrors = rememberingValid((v: string): string[] => {
  const out: string[] = [];
  if (v.length < 1 || v.length > 15) out.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(v)) out.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (v.includes('--')) out.push('must not contain consecutive hyphens');
  if (!/[a-z]/.test(v)) out.push('must contain at least one letter (a-z)');
  if (v.startsWith('-') || v.endsWith('-')) out.push('must not begin or end with a hyphen');
  return out;
});

export function portNumberErrors(n: number): string[] {
  return n >= 1 && n <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** A label value: empty, or ≤63 alphanumerics with '-', '_' and '.' inside. */
export const labelValueErrors = rememberingValid((v: string): string[] => {
  const out: string[] = [];
  if (v.length > 63) out.push(tooLong(63));
  if (!labelValueRe.test(v))
    out.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  return out;
});

/** A qualified name (label keys, appProtocol): an optional DNS-subdomain prefix and '/', then a name of ≤63 characters. */
export const qualifiedNameErrors = rememberingValid((v: string): string[] => {
  const parts = v.split('/');
  let name = v;
  const out: string[] = [];
  if (parts.length > 2)
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, with an optional DNS subdomain prefix and '/'",
    ];
  if (parts.length === 2) {
    const [prefix, rest] = parts;
    name = rest;
    if (!prefix) out.push('prefix part must be non-empty');
    else out.push(...dns1123SubdomainErrors(prefix).map((e) => `prefix part ${e}`));
  }
  if (!name) out.push('name part must be non-empty');
  else {
    if (name.length > 63) out.push(`name part ${tooLong(63)}`);
    if (!qualifiedNameRe.test(name))
      out.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  }
  return out;
});

/** Addresses an endpoint or external IP may not use: unspecified, loopback, link-local (semantics §6.2 `ValidateNonSpecialIP`). */
export function specialIPReason(v: string): string | undefined {
  if (isIPv4(v)) {
    const [a, b] = v.split('.').map(Number);
    if (a === 0 && v === '0.0.0.0') return 'may not be unspecified (0.0.0.0)';
    if (a === 127) return 'may not be in the loopback range (127.0.0.0/8, ::1/128)';
    if (a === 169 && b === 254) return 'may not be in the link-local range (169.254.0.0/16, fe80::/10)';
    if (a === 224 && b === 0 && v.split('.')[2] === '0') return 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)';
    return undefined;
  }
  const lower = v.toLowerCase();
  if (lower === '::') return 'may not be unspecified (::)';
  if (lower === '::1') return 'may not be in the loopback range (127.0.0.0/8, ::1/128)';
  if (/^fe[89ab]/.test(lower)) return 'may not be in the link-local range (169.254.0.0/16, fe80::/10)';
  if (/^ff02:/.test(lower)) return 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)';
  return undefined;
}
