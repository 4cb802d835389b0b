// The peer for the CLI comparison: @monokle/validation with only its resource-links plugin, over every .yaml file
// of a folder. Run as its own process, like our CLI, so both wall times include start-up, reading and parsing.
// Usage: node bench/peer.mjs DIR  → one JSON line on stdout: { resources, results, readMs, loadMs, validateMs }.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { DefaultPluginLoader, DisabledFixer, MonokleValidator, ResourceParser, SchemaLoader, processRefs } from '@monokle/validation';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/peer.mjs DIR');
  process.exit(2);
}

const t0 = performance.now();
const paths = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const full = join(d, e.name);
    if (e.isDirectory()) walk(full);
    else if (/\.ya?ml$/.test(e.name)) paths.push(full);
  }
};
walk(dir);

// The validator takes resources, not files: one per YAML document that has a kind, with its own text and parsed
// content, the way the peer's own tools split files before validating.
const resources = [];
for (const path of paths.sort()) {
  const text = readFileSync(path, 'utf8');
  const filePath = relative(dir, path);
  for (const doc of parseAllDocuments(text)) {
    const content = doc.toJS();
    if (!content || typeof content !== 'object' || !content.kind) continue;
    const [start, , end] = doc.range;
    resources.push({
      id: `${filePath}#${resources.length}`,
      fileId: filePath,
      filePath,
      fileOffset: text.slice(0, start).split('\n').length - 1,
      name: content.metadata?.name ?? '',
      apiVersion: content.apiVersion ?? '',
      kind: content.kind,
      namespace: content.metadata?.namespace,
      content,
      text: text.slice(start, end),
    });
  }
}
const t1 = performance.now();

const parser = new ResourceParser();
const validator = new MonokleValidator({
  loader: new DefaultPluginLoader(),
  parser,
  schemaLoader: new SchemaLoader(),
  suppressors: [],
  fixer: new DisabledFixer(),
});
// The configuration goes to preload: called without one, preload unloads every plugin.
await validator.preload({ plugins: { 'resource-links': true } });
if (
  validator
    .getPlugins()
    .map((p) => p.name)
    .join() !== 'resource-links'
) {
  console.error(
    `peer: expected only the resource-links plugin, got ${
      validator
        .getPlugins()
        .map((p) => p.name)
        .join(', ') || 'none'
    }`,
  );
  process.exit(1);
}
const t2 = performance.now();

// processRefs links the resources (Service selectors to pods, Ingress backends to Services, config references…);
// the resource-links plugin then reports the references left unsatisfied.
processRefs(resources, parser);
const response = await validator.validate({ resources });
const t3 = performance.now();

const results = response.runs.reduce((n, run) => n + run.results.length, 0);
console.log(JSON.stringify({ resources: resources.length, results, readMs: t1 - t0, loadMs: t2 - t1, validateMs: t3 - t2 }));
