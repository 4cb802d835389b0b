// The bundled language server over stdio, as an editor drives it: index a workspace, publish diagnostics for closed
// files, follow edits across files, hover, quick-fix, navigate, complete, apply settings, trace, and exit cleanly.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parseFrames, startServer, type TestClient } from './lspClient';

const fixture = join(__dirname, '..', 'fixtures', 'lsp', 'workspace');

interface Pos {
  line: number;
  character: number;
}
interface TextEditLike {
  range: { start: Pos; end: Pos };
  newText: string;
}

describe('language server over stdio', () => {
  let dir: string;
  let client: TestClient;
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;
  const texts = new Map<string, { text: string; version: number }>();
  const codes = (rel: string) => (client.diagnostics.get(uri(rel))?.diagnostics ?? []).map((d) => d.code);

  const open = async (rel: string, text: string) => {
    texts.set(rel, { text, version: 1 });
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(rel), languageId: 'yaml', version: 1, text } });
  };
  const change = async (rel: string, text: string) => {
    const cur = texts.get(rel)!;
    const version = cur.version + 1;
    texts.set(rel, { text, version });
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(rel), version }, contentChanges: [{ text }] });
  };
  /** The LSP position of the first occurrence of `needle` (plus `delta` characters) in an open document. */
  const pos = (rel: string, needle: string, delta = 0): Pos => {
    const text = texts.get(rel)!.text;
    const i = text.indexOf(needle);
    assert.ok(i >= 0, `${needle} not in ${rel}`);
    const before = text.slice(0, i + delta).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
  };
  const hover = async (rel: string, needle: string, delta = 1): Promise<string> => {
    const h = await client.connection.sendRequest<{ contents: { kind: string; value: string } } | null>('textDocument/hover', {
      textDocument: { uri: uri(rel) },
      position: pos(rel, needle, delta),
    });
    assert.ok(h, `no hover on ${needle} in ${rel}`);
    assert.equal(h.contents.kind, 'markdown');
    return h.contents.value;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-'));
    cpSync(fixture, dir, { recursive: true });
    client = startServer();
  });

  after(() => {
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('initializes with the editor capabilities', async () => {
    const result = await client.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: {
        window: { workDoneProgress: true },
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeWatchedFiles: { dynamicRegistration: true },
          didChangeConfiguration: { dynamicRegistration: true },
        },
        textDocument: {
          publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, tagSupport: { valueSet: [1, 2] } },
        },
      },
    });
    const caps = result.capabilities;
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2 });
    for (const c of ['hoverProvider', 'codeActionProvider', 'codeLensProvider', 'definitionProvider', 'referencesProvider', 'completionProvider'])
      assert.ok(caps[c], c);
    await client.connection.sendNotification('initialized', {});
  });

  it('indexes the workspace with progress and publishes diagnostics for files never opened', async () => {
    const diag = await client.waitFor('postgres.yaml diagnostics', () => client.diagnostics.get(uri('data/postgres.yaml')));
    const d = diag.diagnostics.find((x) => x.code === 'statefulset-service-missing');
    assert.ok(d, JSON.stringify(diag));
    assert.equal(d.source, 'kube-netlens');
    assert.equal(d.severity, 2);
    // The link opens the rules doc shipped beside the server, at the rule's own heading.
    const link = /^(file:\/\/.*\/docs\/rules\.md)#L(\d+)$/.exec(d.codeDescription?.href ?? '');
    assert.ok(link, `codeDescription ${d.codeDescription?.href}`);
    assert.equal(readFileSync(fileURLToPath(link[1]), 'utf8').split('\n')[Number(link[2]) - 1], '## statefulset-service-missing');
    assert.equal(d.range.start.line, 19);
    const progress = client.notifications.filter((n) => n.method === '$/progress').map((n) => (n.params as { value: { kind: string } }).value.kind);
    assert.equal(progress[0], 'begin');
    assert.ok(progress.includes('end'));
    // node_modules is excluded by default; the Helm template is counted as skipped, not analysed.
    assert.ok(![...client.diagnostics.keys()].some((u) => u.includes('node_modules')));
    const status = await client.waitFor('status', () =>
      client.notifications
        .map((n) => n.params as { indexing?: boolean; resources?: number; skippedTemplates?: number })
        .filter((p) => p && p.indexing === false)
        .pop(),
    );
    assert.equal(status.resources, 5);
    assert.equal(status.skippedTemplates, 1);
    assert.deepEqual(codes('apps/service.yaml'), []);
  });

  it('an edit in one file changes the diagnostics of another', async () => {
    const text = readFileSync(join(dir, 'apps/deployment.yaml'), 'utf8');
    await open('apps/deployment.yaml', text);
    await change('apps/deployment.yaml', text.replace(/app: api\n/g, 'app: api-v2\n'));
    await client.waitFor('selector warning on service.yaml', () => codes('apps/service.yaml').includes('service-selector-no-match'));
    await change('apps/deployment.yaml', text);
    await client.waitFor('service.yaml clean again', () => client.diagnostics.get(uri('apps/service.yaml'))?.diagnostics.length === 0);
  });

  it('hovers every kind of place', async () => {
    for (const rel of ['apps/service.yaml', 'apps/ingress.yaml', 'data/postgres.yaml']) await open(rel, readFileSync(join(dir, rel), 'utf8'));
    assert.match(await hover('apps/service.yaml', 'name: api', 7), /^\*\*Service\*\* `api` in namespace `shop`/);
    assert.match(await hover('apps/service.yaml', 'name: api', 7), /\[Trace this Service\]\(command:kubeNetlens\.traceService\?/);
    assert.match(await hover('apps/service.yaml', 'app: api', 6), /^\*\*Selector\*\* `app=api`[\s\S]*Deployment `api` ×2/);
    assert.match(await hover('apps/service.yaml', 'sessionAffinity'), /^\*\*sessionAffinity\*\* `ClientIP`/);
    assert.match(await hover('apps/deployment.yaml', 'app: api\n    spec', 6), /^\*\*Pod label\*\* `app=api`[\s\S]*`api`/);
    assert.match(
      await hover('apps/deployment.yaml', 'name: api', 7),
      /^\*\*Deployment\*\* `api`: NetworkPolicy reach[\s\S]*\*\*Who can reach it\*\*[\s\S]*\*\*Whom it can reach\*\*/,
    );
    assert.match(await hover('apps/deployment.yaml', 'containerPort', 16), /^\*\*Container port\*\* `8080\/TCP \(web\)`[\s\S]*Service `api` port `80\/TCP`/);
    assert.match(await hover('apps/deployment.yaml', 'postgres.data', 2), /^\*\*DNS name\*\* `postgres\.data`[\s\S]*Service `postgres` in `data`/);
    assert.match(await hover('apps/ingress.yaml', 'name: api', 7), /^\*\*Ingress backend\*\*[\s\S]*container port 8080/);
    // The diagnostic on serviceName says why there are no pod names; the hover beside it does not say it again.
    const typo = await hover('data/postgres.yaml', 'postgress', 3);
    assert.match(typo, /^\*\*StatefulSet serviceName\*\* `postgress`[\s\S]*No per-pod DNS names/);
    assert.doesNotMatch(typo, /no Service named/);
  });

  it('applies the preferred quick fix and the diagnostic vanishes', async () => {
    const rel = 'data/postgres.yaml';
    const diag = client.diagnostics.get(uri(rel))!.diagnostics.find((d) => d.code === 'statefulset-service-missing')!;
    const actions = await client.connection.sendRequest<
      { title: string; isPreferred?: boolean; diagnostics: unknown[]; edit: { changes: Record<string, TextEditLike[]> } }[]
    >('textDocument/codeAction', {
      textDocument: { uri: uri(rel) },
      range: diag.range,
      context: { diagnostics: [diag], only: ['quickfix'] },
    });
    assert.ok(actions.length >= 2, JSON.stringify(actions));
    const preferred = actions.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1);
    assert.equal(actions[0], preferred[0]);
    assert.equal((preferred[0].diagnostics[0] as { code: string }).code, 'statefulset-service-missing');
    const edits = preferred[0].edit.changes[uri(rel)];
    await change(rel, applyEdits(texts.get(rel)!.text, edits));
    assert.match(texts.get(rel)!.text, /serviceName: postgres\n/);
    await client.waitFor('postgres.yaml clean', () => {
      const p = client.diagnostics.get(uri(rel));
      return p?.version === texts.get(rel)!.version && p.diagnostics.length === 0;
    });
  });

  it('goes to definitions and finds references', async () => {
    type Loc = { uri: string; range: { start: Pos } };
    const def = await client.connection.sendRequest<Loc[]>('textDocument/definition', {
      textDocument: { uri: uri('data/postgres.yaml') },
      position: pos('data/postgres.yaml', 'serviceName: postgres', 15),
    });
    assert.deepEqual(
      def.map((l) => [l.uri, l.range.start.line]),
      [[uri('data/postgres.yaml'), 3]],
    );
    const sel = await client.connection.sendRequest<Loc[]>('textDocument/definition', {
      textDocument: { uri: uri('apps/service.yaml') },
      position: pos('apps/service.yaml', 'app: api', 6),
    });
    assert.deepEqual(
      sel.map((l) => [l.uri, l.range.start.line]),
      [[uri('apps/deployment.yaml'), 13]],
    );
    const refs = await client.connection.sendRequest<Loc[]>('textDocument/references', {
      textDocument: { uri: uri('apps/service.yaml') },
      position: pos('apps/service.yaml', 'name: api', 7),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      refs.map((l) => l.uri),
      [uri('apps/ingress.yaml')],
    );
    const labelRefs = await client.connection.sendRequest<Loc[]>('textDocument/references', {
      textDocument: { uri: uri('apps/deployment.yaml') },
      position: pos('apps/deployment.yaml', 'app: api\n    spec', 2),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(labelRefs.map((l) => l.uri).sort(), [uri('apps/deployment.yaml'), uri('apps/service.yaml')]);
  });

  it('completes Service names (headless first), Ingress ports and selector values', async () => {
    const rel = 'data/new.yaml';
    await open(
      rel,
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: cache\n  namespace: data\nspec:\n  ports: [{port: 6379}]\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: cache\n  namespace: data\nspec:\n  serviceName: \n',
    );
    type Item = { label: string; sortText?: string };
    const items = await client.connection.sendRequest<Item[]>('textDocument/completion', {
      textDocument: { uri: uri(rel) },
      position: pos(rel, 'serviceName: ', 13),
    });
    const sorted = [...items].sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1)).map((i) => i.label);
    assert.deepEqual(sorted, ['postgres', 'cache']);
    const ing = 'apps/ingress.yaml';
    await change(ing, texts.get(ing)!.text.replace('name: http', 'name: '));
    const ports = await client.connection.sendRequest<Item[]>('textDocument/completion', {
      textDocument: { uri: uri(ing) },
      position: pos(ing, 'port:\n              name: ', 26),
    });
    assert.deepEqual(
      ports.map((i) => i.label),
      ['http'],
    );
    const svc = 'apps/service.yaml';
    await change(svc, texts.get(svc)!.text.replace('app: api', 'app: '));
    const values = await client.connection.sendRequest<Item[]>('textDocument/completion', { textDocument: { uri: uri(svc) }, position: pos(svc, 'app: ', 5) });
    assert.deepEqual(
      values.map((i) => i.label),
      ['api'],
    );
    await change(svc, texts.get(svc)!.text.replace('app: \n', 'app: api\n'));
    await change(ing, texts.get(ing)!.text.replace('name: \n', 'name: http\n'));
  });

  it('applies a settings change without a restart: a rule turned off, another raised to error', async () => {
    const rel = 'data/new.yaml';
    await change(rel, texts.get(rel)!.text.replace('serviceName: \n', 'serviceName: cach\n'));
    await client.waitFor('statefulset-service-missing in new.yaml', () => codes(rel).includes('statefulset-service-missing'));
    const dep = 'apps/deployment.yaml';
    await change(dep, texts.get(dep)!.text.replace(/app: api\n/g, 'app: api-v2\n'));
    await client.waitFor('selector warning', () =>
      client.diagnostics.get(uri('apps/service.yaml'))?.diagnostics.some((d) => d.code === 'service-selector-no-match' && d.severity === 2),
    );
    client.settings = { rules: { 'statefulset-service-missing': 'off', 'service-selector-no-match': 'error' } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.waitFor('selector error', () =>
      client.diagnostics.get(uri('apps/service.yaml'))?.diagnostics.some((d) => d.code === 'service-selector-no-match' && d.severity === 1),
    );
    await client.waitFor('rule off', () => !codes(rel).includes('statefulset-service-missing'));
  });

  it('follows files created and deleted on disk', async () => {
    const rel = 'apps/extra.yaml';
    writeFileSync(
      join(dir, rel),
      'apiVersion: v1\nkind: Service\nmetadata: {name: lonely, namespace: shop}\nspec:\n  selector: {app: nobody}\n  ports: [{port: 80, protocol: tcp}]\n',
    );
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(rel), type: 1 }] });
    await client.waitFor('extra.yaml diagnostics', () => codes(rel).includes('api-validation'));
    unlinkSync(join(dir, rel));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(rel), type: 3 }] });
    await client.waitFor('extra.yaml cleared', () => client.diagnostics.get(uri(rel))?.diagnostics.length === 0);
  });

  it('answers trace and listServices, and lenses that run the trace command', async () => {
    const trace = await client.connection.sendRequest<{ graph: { service: { name: string } }; mermaid: string; text: string }>('kubeNetlens/trace', {
      namespace: 'shop',
      name: 'api',
    });
    assert.equal(trace.graph.service.name, 'api');
    assert.ok(trace.mermaid.length > 0 && trace.text.includes('api'));
    const services = await client.connection.sendRequest<{ namespace: string; name: string; type: string }[]>('kubeNetlens/listServices');
    assert.deepEqual(
      services.map((s) => `${s.namespace}/${s.name}`),
      ['data/cache', 'data/postgres', 'shop/api'],
    );
    const lenses = await client.connection.sendRequest<{ command: { title: string; command: string; arguments?: unknown[] } }[]>('textDocument/codeLens', {
      textDocument: { uri: uri('data/postgres.yaml') },
    });
    assert.deepEqual(
      lenses.map((l) => l.command.title),
      ['2 endpoints · StatefulSet db ×2', 'Trace', 'db-0…db-1.postgres'],
    );
    assert.deepEqual(lenses[1].command, { title: 'Trace', command: 'kubeNetlens.traceService', arguments: [{ namespace: 'data', name: 'postgres' }] });
  });

  it('a failing request answers an error and the server keeps serving', async () => {
    await assert.rejects(client.connection.sendRequest('kubeNetlens/trace', null), /could not answer trace/);
    const services = await client.connection.sendRequest<unknown[]>('kubeNetlens/listServices');
    assert.equal(services.length, 3);
  });

  it('shuts down and exits with code 0, having written only LSP frames to stdout', async () => {
    await client.connection.sendRequest('shutdown');
    await client.connection.sendNotification('exit');
    assert.equal(await client.exited, 0);
    const frames = parseFrames(client.stdout);
    assert.ok(frames.length > 10);
  });
});

function applyEdits(text: string, edits: readonly TextEditLike[]): string {
  const lines = text.split('\n');
  const offset = (p: Pos) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}
