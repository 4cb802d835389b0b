// Globs from settings are compiled to an automaton run in one pass: it agrees with a regular-expression translation
// on small patterns, takes linear time on shapes that make a regular expression backtrack, and refuses invalid patterns
// with a reason.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { automatonOf, checkGlob, compileGlobs, compileOne, globMatcher, matcherOf, maxAlternatives, maxPatternLength } from '../../server/src/workspace/glob';
import { cpuClock } from '../helpers/cpuClock';

/** A straightforward translation to a regular expression: the definition, usable on small inputs only. */
function reference(glob: string): RegExp {
  let g = glob.trim().replace(/\\/g, '/');
  if (g.startsWith('./')) g = g.slice(2);
  if (!g.includes('/')) g = `**/${g}`;
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      let j = i;
      while (g[j + 1] === '*') j++;
      const atStart = i === 0 || g[i - 1] === '/';
      const atEnd = j + 1 === g.length || g[j + 1] === '/';
      if (j > i && atStart && atEnd) {
        if (j + 1 === g.length) re += '.*';
        else {
          re += '(?:.*/)?';
          j++;
        }
      } else re += '[^/]*';
      i = j;
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^$()|[\]\\{}*?]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

describe('glob matcher', () => {
  it('matches what the regular-expression translation matches', () => {
    const pattern = fc.stringMatching(/^[ab/*?.]{1,9}$/);
    const path = fc.stringMatching(/^[ab/.]{0,10}$/);
    fc.assert(
      fc.property(pattern, path, (p, s) => {
        assert.equal(globMatcher([p])(s), reference(p).test(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`);
      }),
      { seed: 20261201, numRuns: 5000 },
    );
  });

  it('answers the common shapes by string comparison exactly as the automaton does', () => {
    const lit = fc.stringMatching(/^[ab/.]{0,5}$/);
    const shape = fc.tuple(fc.constantFrom('**/*', '**/', '', 'a/**/'), lit, fc.constantFrom('', '/**', '/*')).map(([head, l, tail]) => head + l + tail);
    const path = fc.stringMatching(/^[ab/.]{0,10}$/);
    fc.assert(
      fc.property(shape, path, (p, s) => {
        const programs = compileOne(p);
        if (typeof programs === 'string') return;
        for (const prog of programs) assert.equal(matcherOf(prog)(s), automatonOf(prog)(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`);
      }),
      { seed: 20261202, numRuns: 20000 },
    );
  });

  it('reads the usual patterns as VS Code does', () => {
    const cases: [string, string, boolean][] = [
      ['**/*.yaml', 'a/b.yaml', true],
      ['**/*.yaml', 'b.yaml', true],
      ['**/*.yaml', 'a/b.yml', false],
      ['deploy/{a,b}/*.yml', 'deploy/b/x.yml', true],
      ['deploy/{a,b}/*.yml', 'deploy/c/x.yml', false],
      ['**/node_modules/**', 'x/node_modules/y/z', true],
      ['*.yaml', 'q/w.yaml', true],
      ['./k8s/*.yaml', 'k8s/a.yaml', true],
      ['k8s/{base,overlays/{dev,prod}}/*.yaml', 'k8s/overlays/prod/a.yaml', true],
      ['a?c.yaml', 'a/c.yaml', false],
    ];
    for (const [p, s, want] of cases) assert.equal(globMatcher([p])(s), want, `${p} on ${s}`);
  });

  it('takes linear time on patterns that make regular expressions backtrack', () => {
    const shapes = ['**/'.repeat(300) + 'x', '*a'.repeat(300) + 'b', 'a/'.repeat(400) + '**/'.repeat(100) + '*.yaml', '?'.repeat(900)];
    const path = 'a/'.repeat(2000) + 'a'.repeat(5000);
    const cpuMs = cpuClock();
    for (const p of shapes) assert.equal(globMatcher([p])(path), false, p.slice(0, 20));
    assert.ok(cpuMs() < 2000, `${cpuMs()} ms`);
  });

  it('refuses invalid patterns with a reason and keeps the valid ones', () => {
    const c = compileGlobs(['**/*.yaml', 'deploy/{a,b', 'x'.repeat(maxPatternLength + 1), '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}', '']);
    assert.deepEqual(
      c.invalid.map((i) => i.reason),
      [
        'the "{" at position 8 is never closed',
        `longer than ${maxPatternLength} characters`,
        `its braces expand to more than ${maxAlternatives} alternatives`,
        'empty',
      ],
    );
    assert.equal(c.match('a/b.yaml'), true);
    assert.equal(checkGlob('**/*.{yaml,yml}'), undefined);
  });
});
