// POSIX-style path arithmetic on URI strings (`file:///repo/base/app.yaml`), for the pure renderer: no `path`
// module, no file system. A URI's path part is everything after the authority; queries and fragments are not used.

/** The part before the path (`file://`), and the path (`/repo/base`). */
function split(uri: string): [string, string] {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*)(.*)$/.exec(uri);
  return m ? [m[1], m[2] || '/'] : ['', uri];
}

/** Resolves `.` and `..` segments; never climbs above the root. */
export function normalizePath(path: string): string {
  const abs = path.startsWith('/');
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
      continue;
    }
    out.push(seg);
  }
  return (abs ? '/' : '') + out.join('/');
}

/** `ref` (a relative or absolute path) resolved against the folder `dirUri`. */
export function resolveUri(dirUri: string, ref: string): string {
  const [authority, path] = split(dirUri);
  const joined = ref.startsWith('/') ? ref : `${path.replace(/\/+$/, '')}/${ref}`;
  return authority + normalizePath(joined);
}

/** The folder of a URI or path; `.` for a relative path with no folder. */
export function dirnameUri(uri: string): string {
  const [authority, path] = split(uri);
  const trimmed = path.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  if (i < 0) return authority ? authority + '/' : '.';
  return authority + (i === 0 ? '/' : trimmed.slice(0, i));
}

export function basenameUri(uri: string): string {
  // The common case without a regular expression (every file of a workspace is asked at every snapshot): a last
  // `/` that is not part of the authority's `//` nor the URI's end.
  const last = uri.lastIndexOf('/');
  if (last > 0 && last < uri.length - 1 && uri.charCodeAt(last - 1) !== 47) return uri.slice(last + 1);
  const path = split(uri)[1].replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `uri` relative to the folder `fromDirUri` (`../base/app.yaml`), for messages and labels. */
export function relativeUri(fromDirUri: string, uri: string): string {
  const [a1, p1] = split(fromDirUri);
  const [a2, p2] = split(uri);
  if (a1 !== a2) return uri;
  const from = normalizePath(p1).split('/').filter(Boolean);
  const to = normalizePath(p2).split('/').filter(Boolean);
  let i = 0;
  while (i < from.length && i < to.length && from[i] === to[i]) i++;
  const rel = [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
  return rel || '.';
}

/** Whether `uri` is `dirUri` or inside it. */
export function isWithin(dirUri: string, uri: string): boolean {
  const d = dirUri.replace(/\/+$/, '');
  // '' and '.' are the current folder of relative paths (`check .`): every relative path that does not climb out is in it
  if (d === '' || d === '.') return !uri.startsWith('/') && uri !== '..' && !uri.startsWith('../') && !/^[a-z][a-z0-9+.-]*:/i.test(uri);
  return uri === d || uri.startsWith(d + '/');
}
