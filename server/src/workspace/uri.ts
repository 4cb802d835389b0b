// One spelling per file: every file URI that enters the server (from the editor, the file watcher, or made from a path
// while indexing) is rewritten to the form VS Code gives it, so that one file is never indexed twice under two
// spellings (`a%20b.yaml` and `a b.yaml`, `a+b.yaml` and `a%2Bb.yaml`) and reported as a duplicate of itself.
//
// VS Code's form (`URI.toString()`): the path percent-decoded, then every character other than the unreserved ones
// (`A–Z a–z 0–9 - . _ ~`) and `/` percent-encoded as UTF-8 with upper-case hex; a Windows drive letter in lower case
// with its colon encoded.

import { fileURLToPath } from 'node:url';

/** The canonical spelling of a URI; URIs of other schemes than `file` are returned unchanged. */
export function canonicalUri(uri: string): string {
  if (!/^file:/i.test(uri)) return uri;
  let rest = uri.slice(5);
  let suffix = '';
  const cut = rest.search(/[?#]/);
  if (cut >= 0) {
    suffix = rest.slice(cut);
    rest = rest.slice(0, cut);
  }
  let authority = '';
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '/' : rest.slice(slash);
  }
  return `file://${encode(decodeGracefully(authority).toLowerCase(), false)}${encodePath(decodeGracefully(rest))}${suffix}`;
}

/**
 * The path of a file URI, read through its canonical spelling (so every spelling of one file gives one path), or
 * undefined for another scheme or a URI no path can have (an encoded `/`, a host on POSIX).
 */
export function pathOfUri(uri: string): string | undefined {
  const canonical = canonicalUri(uri);
  if (!canonical.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(canonical);
  } catch {
    return undefined;
  }
}

/** The canonical file URI of an absolute path. */
export function fileUri(path: string): string {
  let p = path;
  if (/^[A-Za-z]:[\\/]/.test(p) || p.includes('\\')) p = p.replace(/\\/g, '/');
  if (!p.startsWith('/')) p = `/${p}`;
  return `file://${encodePath(p)}`;
}

function encodePath(path: string): string {
  let p = path || '/';
  const drive = /^\/([A-Za-z]):/.exec(p);
  if (drive) p = `/${drive[1].toLowerCase()}:${p.slice(3)}`;
  return encode(p, true);
}

const utf8 = new TextEncoder();

function encode(s: string, isPath: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95 || c === 126 || (isPath && c === 47)) {
      out += s[i];
      continue;
    }
    // one code point (a surrogate pair together); a lone surrogate becomes U+FFFD
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (cp > 0xffff) i++;
    for (const b of utf8.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent-decoding that leaves a malformed escape as it is instead of failing. */
function decodeGracefully(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // a run with an invalid UTF-8 sequence: decode what forms characters, keep the rest escaped
      return run.replace(/%[0-9A-Fa-f]{2}/g, (one) => {
        try {
          return decodeURIComponent(one);
        } catch {
          return one;
        }
      });
    }
  });
}
