// Workspace-relative glob patterns (`**/*.yaml`, `deploy/{a,b}/*.yml`) as matchers over `/`-separated paths.

export type PathMatcher = (relativePath: string) => boolean;

export function globMatcher(patterns: readonly string[]): PathMatcher {
  const res = patterns.map(globToRegExp);
  return (p) => res.some((re) => re.test(p));
}

export function globToRegExp(glob: string): RegExp {
  let g = glob.trim().replace(/\\/g, '/');
  if (g.startsWith('./')) g = g.slice(2);
  // A pattern without a slash matches at any depth, as in .gitignore and VS Code's files.exclude.
  if (!g.includes('/')) g = `**/${g}`;
  let re = '';
  let braces = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        const atStart = i === 0 || g[i - 1] === '/';
        const atEnd = i + 2 === g.length || g[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` matches zero or more directories; a trailing `**` matches everything below.
          if (i + 2 === g.length) re += '.*';
          else re += '(?:.*/)?';
          i += g[i + 2] === '/' ? 2 : 1;
          continue;
        }
        re += '[^/]*';
        i++;
        continue;
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
