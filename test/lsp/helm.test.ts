// Helm charts in the language server: templates are never read as manifests (even without `{{`), and each chart's
// Chart.yaml says why it is not rendered: an untrusted workspace, or no helm; nothing once helm is configured.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestClient } from './lspClient';

const root = join(__dirname, '..', '..');
const helm = join(root, '.tools', 'helm', 'helm');

describe('language server with Helm charts', () => {
  let dir: string;
  const clients: TestClient[] = [];
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-helm-'));
    cpSync(join(root, 'test', 'fixtures', 'helm', 'typo'), join(dir, 'shop'), { recursive: true });
    // A template without `{{`: read as a manifest, its Service would select nothing (a near miss of the chart's pods).
    writeFileSync(
      join(dir, 'shop', 'templates', 'plain.yaml'),
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: lonely\nspec:\n  selector:\n    app: shop-wb\n  ports:\n    - port: 80\n',
    );
  });

  after(() => {
    for (const c of clients) if (c.process.exitCode === null) c.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (trusted: boolean | undefined, settings: Record<string, unknown> = {}): Promise<TestClient> => {
    const client = startServer();
    client.settings = settings;
    clients.push(client);
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } } },
      initializationOptions: trusted === undefined ? {} : { workspaceTrusted: trusted },
    });
    await client.connection.sendNotification('initialized', {});
    return client;
  };
  const chartNote = (client: TestClient) => client.waitFor('Chart.yaml diagnostics', () => client.diagnostics.get(uri('shop/Chart.yaml')));

  it('in an untrusted workspace: templates skipped and counted, one note on Chart.yaml, nothing on templates', async () => {
    const client = await start(undefined);
    const note = await chartNote(client);
    assert.deepEqual(
      note.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]),
      [['helm-not-rendered', 3, 1]],
    );
    assert.match(note.diagnostics[0].message, /rendered \(by running helm\) only in a trusted workspace/);
    const status = await client.waitFor('status', () =>
      client.notifications
        .map((n) => n.params as { indexing?: boolean; skippedTemplates?: number })
        .filter((p) => p && p.indexing === false)
        .pop(),
    );
    assert.equal(status.skippedTemplates, 3);
    for (const [u, p] of client.diagnostics) if (u.includes('/templates/')) assert.deepEqual(p.diagnostics, [], u);
  });

  it('trusted without helm: the note says how to point kubeNetlens.helm.path at helm; with it set, the note goes', async () => {
    const client = await start(true);
    const note = await chartNote(client);
    assert.deepEqual(
      note.diagnostics.map((d) => d.code),
      ['helm-not-rendered'],
    );
    assert.match(note.diagnostics[0].message, /rendering needs helm.*kubeNetlens\.helm\.path/);
    client.settings = { helm: { path: helm } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.waitFor('the note to go', () => client.diagnostics.get(uri('shop/Chart.yaml'))?.diagnostics.length === 0);
  });

  it('trusted with helm: renders the chart, puts findings on template lines, re-renders the chart after a save and while typing', async () => {
    const client = await start(true, { helm: { path: helm } });
    const service = await client.waitFor(
      'service.yaml diagnostics',
      () => {
        const p = client.diagnostics.get(uri('shop/templates/service.yaml'));
        return p?.diagnostics.length ? p : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      service.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      [['service-selector-no-match', 8, 9]],
    );
    assert.match(service.diagnostics[0].message, /\nin release shop, values\.yaml: rendered `shop-wbe`$/);
    // the template without `{{` is rendered like the others, and checked where it says so
    const plain = await client.waitFor('plain.yaml diagnostics', () => client.diagnostics.get(uri('shop/templates/plain.yaml')));
    assert.deepEqual(
      plain.diagnostics.map((d) => [d.code, d.range.start.line]),
      [['service-selector-no-match', 6]],
    );
    assert.equal(client.diagnostics.get(uri('shop/Chart.yaml'))?.diagnostics.length ?? 0, 0);
    // no diagnostics for the renders themselves: they are no files
    assert.ok(![...client.diagnostics.keys()].some((u) => u.includes('#helm') || u.includes('%23helm')));
    const status = await client.waitFor('status with a rendered chart', () =>
      client.notifications
        .map((n) => n.params as { chartsRendered?: number; chartsNotRendered?: number; skippedTemplates?: number })
        .filter((p) => p?.chartsRendered === 1)
        .pop(),
    );
    assert.deepEqual([status.chartsNotRendered, status.skippedTemplates], [0, 0]);
    // while it rendered, the status said so; once rendered, no progress is left
    const statuses = client.notifications
      .filter((n) => n.method === 'kubeNetlens/status')
      .map((n) => n.params as { chartsRendered?: number; progress?: { charts?: unknown } });
    assert.deepEqual(statuses.find((p) => p.progress?.charts)?.progress, { charts: { done: 0, total: 1 } });
    assert.equal(statuses.filter((p) => p.chartsRendered === 1).pop()?.progress, undefined);
    // the Service picker and the trace view point at the template, not at the render
    const services = await client.connection.sendRequest<{ namespace: string; name: string; release?: string; source?: { uri: string; line: number } }[]>(
      'kubeNetlens/listServices',
      {},
    );
    const web = services.find((x) => x.name === 'shop-web')!;
    assert.deepEqual(
      [web.namespace, web.source?.uri, web.source?.line, web.release],
      ['default', uri('shop/templates/service.yaml'), 3, 'release shop, values.yaml'],
    );
    // a hover in the template shows what the value set rendered there
    const hover = await client.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: uri('shop/templates/service.yaml') },
      position: { line: 3, character: 12 },
    });
    assert.ok(hover, 'a hover on the templated Service name');
    assert.match(hover.contents.value, /^\*\*Rendered in release shop, values\\\.yaml\*\*\n/);
    assert.match(hover.contents.value, /shop-web\.default\.svc\.cluster\.local/);
    const trace = await client.connection.sendRequest<{ graph: { nodes: { source?: { uri: string } }[] } }>('kubeNetlens/trace', {
      namespace: 'default',
      name: 'shop-web',
    });
    const sources = trace.graph.nodes.flatMap((n) => (n.source ? [n.source.uri] : []));
    assert.ok(sources.length > 0 && sources.every((u) => !u.includes('#helm')), sources.join(', '));
    // the typo fixed on disk and the save reported: only this chart renders again, and the finding goes
    const path = join(dir, 'shop', 'templates', 'service.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('-wbe', '-web'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('shop/templates/service.yaml'), type: 2 }] });
    await client.waitFor('the finding to go', () => client.diagnostics.get(uri('shop/templates/service.yaml'))?.diagnostics.length === 0, 30_000);
    writeFileSync(path, readFileSync(path, 'utf8').replace('-web\n  ports', '-wbe\n  ports'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('shop/templates/service.yaml'), type: 2 }] });
    await client.waitFor('the finding back', () => client.diagnostics.get(uri('shop/templates/service.yaml'))?.diagnostics.length === 1, 30_000);
    // typing in an open template, unsaved: the chart renders again from the editor's text
    const typed = readFileSync(path, 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri('shop/templates/service.yaml'), languageId: 'yaml', version: 1, text: typed },
    });
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('shop/templates/service.yaml'), version: 2 },
      contentChanges: [{ text: typed.replace('-wbe', '-web') }],
    });
    await client.waitFor(
      'the finding to go while typing',
      () => {
        const p = client.diagnostics.get(uri('shop/templates/service.yaml'));
        return p?.version === 2 && p.diagnostics.length === 0;
      },
      30_000,
    );
    assert.equal(readFileSync(path, 'utf8'), typed, 'nothing was written to the workspace');
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('shop/templates/service.yaml'), version: 3 },
      contentChanges: [{ text: typed }],
    });
    await client.waitFor('the finding back while typing', () => client.diagnostics.get(uri('shop/templates/service.yaml'))?.diagnostics.length === 1, 30_000);
    // helm unset again: the renders go, the note comes back
    client.settings = { helm: { path: join(root, 'no-such-helm') } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.waitFor('the note', () => client.diagnostics.get(uri('shop/Chart.yaml'))?.diagnostics.some((d) => /needs helm/.test(d.message)));
    await client.waitFor('no findings from renders', () => client.diagnostics.get(uri('shop/templates/plain.yaml'))?.diagnostics.length === 0);
  });

  it("ignores an untrusted workspace's helm path", async () => {
    const untrusted = await start(false, { helm: { path: helm } });
    assert.match((await chartNote(untrusted)).diagnostics[0].message, /only in a trusted workspace/);
    const trusted = await start(true, { helm: { path: helm } });
    await trusted.waitFor('status', () => trusted.notifications.some((n) => (n.params as { indexing?: boolean })?.indexing === false));
    assert.equal(trusted.diagnostics.get(uri('shop/Chart.yaml'))?.diagnostics.length ?? 0, 0);
  });
});

describe('language server with a chart that looks up a Service in the cluster', () => {
  let dir: string;
  let client: TestClient | undefined;
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-helm-lookup-'));
    cpSync(join(root, 'test', 'fixtures', 'helm', 'lookup'), join(dir, 'portal'), { recursive: true });
    cpSync(join(root, 'test', 'fixtures', 'helm', 'typo'), join(dir, 'shop'), { recursive: true });
  });

  after(() => {
    if (client?.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the looked-up Service is unknown, not missing; other charts are checked as before; a lookup of another kind lets the finding come', async () => {
    client = startServer();
    const c = client;
    c.settings = { helm: { path: helm } };
    await c.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: { workspace: { configuration: true } },
      initializationOptions: { workspaceTrusted: true },
    });
    await c.connection.sendNotification('initialized', {});
    await c.waitFor(
      'both charts rendered',
      () => c.notifications.some((n) => (n.params as { chartsRendered?: number } | undefined)?.chartsRendered === 2),
      30_000,
    );
    await c.waitFor('the typo in the other chart', () => c.diagnostics.get(uri('shop/templates/service.yaml'))?.diagnostics.length === 1, 30_000);
    assert.equal(c.diagnostics.get(uri('portal/templates/ingress.yaml'))?.diagnostics.length ?? 0, 0);
    const path = join(dir, 'portal', 'templates', 'ingress.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('lookup "v1" "Service"', 'lookup "v1" "ConfigMap"'));
    await c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('portal/templates/ingress.yaml'), type: 2 }] });
    const found = await c.waitFor(
      'the missing backend',
      () => {
        const p = c.diagnostics.get(uri('portal/templates/ingress.yaml'));
        return p?.diagnostics.length ? p : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      found.diagnostics.map((d) => [d.code, d.range.start.line]),
      [['ingress-backend-missing', 14]],
    );
  });
});

describe('language server with a chart of several value sets', () => {
  let dir: string;
  let client: TestClient | undefined;
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-helm-sets-'));
    cpSync(join(root, 'test', 'fixtures', 'helm', 'valuesets'), join(dir, 'api'), { recursive: true });
  });

  after(() => {
    if (client?.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hovers show what each value set rendered, one finding names every value set that has it, the picker names the releases', async () => {
    client = startServer();
    const c = client;
    c.settings = { helm: { path: helm } };
    await c.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: { workspace: { configuration: true } },
      initializationOptions: { workspaceTrusted: true },
    });
    await c.connection.sendNotification('initialized', {});
    const published = await c.waitFor(
      'services.yaml diagnostics',
      () => {
        const p = c.diagnostics.get(uri('api/templates/services.yaml'));
        return p && p.diagnostics.length === 2 ? p : undefined;
      },
      30_000,
    );
    const diagnostics = [...published.diagnostics].sort((a, b) => a.range.start.line - b.range.start.line);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line]),
      [
        ['service-selector-no-match', 6],
        ['service-target-port-unresolved', 20],
      ],
    );
    assert.match(diagnostics[1].message, /\nin release api, value sets values\.yaml, ci\/prod-values\.yaml and ci\/staging-values\.yaml: rendered `metrics`$/);
    assert.match(diagnostics[0].message, /\nin release api, values ci\/prod-values\.yaml: rendered `apii`$/);
    // the selector renders differently in prod, and each value set has its own replica count: a section per value set
    const hover = async (line: number, character: number) =>
      (
        await c.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
          textDocument: { uri: uri('api/templates/services.yaml') },
          position: { line, character },
        })
      )?.contents.value ?? '';
    const selector = await hover(6, 10);
    const titles = selector.split('\n').filter((l) => l.startsWith('**Rendered in'));
    assert.deepEqual(titles, [
      '**Rendered in release api, values\\.yaml**',
      '**Rendered in release api, values ci/prod\\-values\\.yaml**',
      '**Rendered in release api, values ci/staging\\-values\\.yaml**',
    ]);
    const sections = selector.split('**Rendered in ').slice(1);
    assert.match(sections[0], /`app=api`[\s\S]*Deployment `api` ×2/);
    assert.match(sections[1], /`app=apii`[\s\S]*No pod template in `default` matches the whole selector/);
    assert.match(sections[2], /`app=api`[\s\S]*Deployment `api` ×1/);
    // the Service: its endpoints in each value set, the variant named by its values file, not by the render's place
    const name = (await hover(3, 9)).split('**Rendered in ').slice(1);
    assert.equal(name.length, 3);
    assert.match(
      name[0],
      /^release api, values\\.yaml\*\*\n\n\*\*Service\*\* `api` in namespace `default` \(variant values\\.yaml\)[\s\S]*Deployment `api` ×2/,
    );
    assert.match(name[1], /\(variant ci\/prod\\-values\\.yaml\)[\s\S]*No endpoints/);
    assert.ok(name.every((section) => !section.includes('#helm') && /api\.default\.svc\.cluster\.local/.test(section)));
    const services = await c.connection.sendRequest<{ name: string; release?: string; source?: { uri: string } }[]>('kubeNetlens/listServices', {});
    const api = services.filter((s) => s.name === 'api');
    assert.deepEqual(
      api.map((s) => [s.source?.uri, s.release]),
      [[uri('api/templates/services.yaml'), 'release api, value sets ci/prod-values.yaml, ci/staging-values.yaml and values.yaml']],
    );
  });
});
