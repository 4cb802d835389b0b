// The reach hover asks `reach` only about the ends the label index says a workload's rules may admit (analysis/reach.ts
// ingressCandidates, egressCandidates) and counts the others as denied. Over every case of the reach test set, each
// workload's hover must say what asking about every end says: the same ends listed, in the same order, and the
// same number denied.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { reach, type Endpoint, type ListedEnd } from '../../server/src/analysis/reach';
import { isWorkloadFragment } from '../../server/src/analysis/unknowns';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { workloadReachHover } from '../../server/src/features/hoverReach';
import type { Workload } from '../../server/src/model/resources';

const root = join(__dirname, '..', 'fixtures', 'reach');

/** What the hover would list for one direction when asking about every other workload and outside the cluster. */
function expected(
  all: readonly Workload[],
  w: Workload,
  direction: 'ingress' | 'egress',
  cluster: Parameters<typeof reach>[0],
): { listed: string[]; denied: number } {
  const self: Endpoint = { kind: 'workload', workload: w };
  const peers: ListedEnd[] = [
    ...all
      .filter((x) => x !== w && !isWorkloadFragment(x) && !(x.namespace === w.namespace && x.name === w.name && x.kind === w.kind))
      .map((x): ListedEnd => ({ kind: 'workload', workload: x })),
    { kind: 'external' },
  ];
  const listed: string[] = [];
  let denied = 0;
  for (const p of peers) {
    const r = direction === 'ingress' ? reach(cluster, p, self) : reach(cluster, self, p);
    if (r.verdict === 'denied') denied++;
    else listed.push(p.kind === 'external' ? 'outside the cluster' : p.workload.name);
  }
  return { listed, denied };
}

function section(hover: string, heading: string): string {
  const from = hover.indexOf(heading);
  const to = hover.indexOf('**', from + heading.length + 2);
  return hover.slice(from + heading.length, to < 0 ? undefined : to);
}

describe('reach hover: the candidates say what asking about every end says', () => {
  for (const name of readdirSync(root)
    .filter((n) => !n.includes('.'))
    .sort()) {
    it(name, () => {
      const a = analyzeTexts([{ uri: 'file:///c/manifests.yaml', text: readFileSync(join(root, name, 'manifests.yaml'), 'utf8') }]);
      for (const w of a.cluster.workloads.filter((x) => !isWorkloadFragment(x))) {
        const hover = workloadReachHover(a, w);
        for (const [direction, heading] of [
          ['ingress', '**Who can reach it**'],
          ['egress', '**Whom it can reach**'],
        ] as const) {
          const text = section(hover, heading);
          if (/ingress is not isolated|egress is not limited/.test(text)) continue;
          const want = expected(a.cluster.workloads, w, direction, a.cluster);
          const shown = [...text.matchAll(/^- (?:\w+ `([^`]+)`|(outside the cluster))/gm)].map((m) => m[1] ?? m[2]);
          const more = Number(/and (\d+) more/.exec(text)?.[1] ?? 0);
          const denied = Number(/denied: (\d+)/.exec(text)?.[1] ?? 0);
          assert.deepEqual(shown, want.listed.slice(0, shown.length), `${name}: ${w.name} ${direction} listed`);
          assert.equal(shown.length + more, want.listed.length, `${name}: ${w.name} ${direction} allowed or unknown`);
          assert.equal(denied, want.denied, `${name}: ${w.name} ${direction} denied`);
        }
      }
    });
  }
});
