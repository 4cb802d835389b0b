// The trace picker over Kustomize builds, through the bundled server: a Service written once in a base is listed once
// per overlay that builds it, named by its build root, and its trace follows that build's rendered objects.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { ServiceSummary, TraceResult } from '../../server/src/protocol';
import { canonicalUri } from '../../server/src/workspace/uri';
import { startServer, type TestClient } from './lspClient';

const workspace = join(__dirname, '..', 'fixtures', 'lsp', 'kustomize-builds');

describe('language server: Services of Kustomize builds', () => {
  let client: TestClient;
  before(async () => {
    client = startServer();
    const folder = pathToFileURL(workspace).href;
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'ws' }],
      capabilities: {},
    });
    await client.connection.sendNotification('initialized', {});
  });
  after(() => {
    if (client.process.exitCode === null) client.process.kill();
  });

  it('lists the base Service once per overlay, labelled with the build root, and traces each build', async () => {
    // The server answers once it has indexed the workspace; until then the list may still be empty.
    let services: ServiceSummary[] = [];
    for (let i = 0; i < 100 && services.length < 2; i++) {
      services = await client.connection.sendRequest<ServiceSummary[]>('kubeNetlens/listServices');
      if (services.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    // the server speaks of files in the editor's canonical spelling (a `+` or `@` in the checkout's path is escaped)
    const base = canonicalUri(pathToFileURL(join(workspace, 'base', 'web.yaml')).href);
    assert.deepEqual(services.map((s) => `${s.namespace}/${s.name} ${s.unit}`).sort(), ['shop/web build overlays/prod', 'shop/web build overlays/staging']);
    for (const s of services) {
      assert.equal(s.definedAt?.uri, base, 'the picker knows the line the Service is written on');
      assert.equal(s.definedAt?.line, 3);
    }
    const replicas: Record<string, string[]> = {};
    for (const s of services) {
      const trace = await client.connection.sendRequest<TraceResult>('kubeNetlens/trace', { namespace: s.namespace, name: s.name, uri: s.source!.uri });
      const endpoints = trace.graph.nodes.filter((n) => n.column === 'endpoints');
      replicas[s.unit!] = endpoints.map((n) => n.label);
      // The boxes open the base's lines, not the build's text.
      assert.equal(trace.graph.service.source?.uri, base);
      assert.ok(endpoints.every((n) => n.source?.uri === base));
    }
    // prod patches the Deployment to 4 replicas: each trace counts its own build's pods.
    assert.deepEqual(replicas, { 'build overlays/prod': ['Deployment web ×4'], 'build overlays/staging': ['Deployment web ×1'] });
  });
});
