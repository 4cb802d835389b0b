// The publishing pass and the requests that wait for its findings (code actions, the trace): every waiter is
// answered, whatever the timing of changes against passes. In process, with a connection that records what is sent.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Connection } from 'vscode-languageserver/node';
import { createChartRenderer } from '../../server/src/lsp/charts';
import { createPublisher } from '../../server/src/lsp/publish';
import type { OpenDocuments } from '../../server/src/lsp/documentSync';
import { createWorkspace, type Workspace } from '../../server/src/workspace/workspace';
import { parseFixture } from '../helpers/fixture';

/** The files of a fixture whose Service selector has a typo (service-selector-no-match fires on it). */
const files = new Map(
  parseFixture(readFileSync(join(__dirname, '..', 'fixtures', 'rules', 'service-selector-no-match', 'fires-typo.yaml'), 'utf8'), 'file:///ws/').sources.map(
    (f) => [f.uri, f.text],
  ),
);

function fakeConnection(errors: string[]): Connection {
  return {
    sendDiagnostics: () => Promise.resolve(),
    sendNotification: () => Promise.resolve(),
    console: { info: () => undefined, error: (m: string) => void errors.push(m), warn: () => undefined, log: () => undefined },
  } as unknown as Connection;
}

const noOpen: OpenDocuments = { documentAt: () => undefined, editorUri: (u: string) => u, uris: () => [][Symbol.iterator]() } as unknown as OpenDocuments;

function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not answered within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e as Error)),
    );
  });
}

function setUp(): { workspace: Workspace; publisher: ReturnType<typeof createPublisher>; errors: string[] } {
  const errors: string[] = [];
  const workspace = createWorkspace();
  workspace.replaceDisk(files, []);
  const charts = createChartRenderer(
    workspace,
    () => undefined,
    () => undefined,
  );
  const publisher = createPublisher(fakeConnection(errors), workspace, noOpen, charts);
  return { workspace, publisher, errors };
}

describe('requests waiting for the findings of a pass', () => {
  it('are answered for a snapshot made while a pass runs, though nothing scheduled another pass', async () => {
    const { workspace, publisher, errors } = setUp();
    publisher.indexed();
    const first = await within(10_000, 'the first findings', publisher.findingsOf(workspace.snapshot()));
    assert.ok(
      first?.some((f) => f.code === 'service-selector-no-match'),
      'the first pass finds the typo',
    );
    // The pass that answered is still finishing (it prepares the next edit's indexes): a change that schedules no
    // pass of its own (a build result entering the workspace) makes a newer snapshot, and a request waits for it.
    workspace.setKustomizeBuilds(new Map());
    const newer = workspace.snapshot();
    const second = await within(10_000, 'the findings of the newer snapshot', publisher.findingsOf(newer));
    assert.ok(second?.some((f) => f.code === 'service-selector-no-match'));
    assert.deepEqual(errors, []);
  });

  it('are answered when the pass fails, and the failure is logged', async () => {
    const errors: string[] = [];
    const workspace = createWorkspace();
    workspace.replaceDisk(files, []);
    const charts = createChartRenderer(
      workspace,
      () => undefined,
      () => undefined,
    );
    const failing = {
      ...fakeConnection(errors),
      sendDiagnostics: () => {
        throw new Error('planted failure');
      },
    } as unknown as Connection;
    const publisher = createPublisher(failing, workspace, noOpen, charts);
    const waiting = publisher.findingsOf(workspace.snapshot());
    publisher.indexed();
    await within(10_000, 'a request during the failing pass', waiting);
    await within(1_000, 'a request after it', publisher.findingsOf(workspace.snapshot()));
    assert.ok(
      errors.some((e) => e.includes('planted failure')),
      'the failure is logged',
    );
  });
});
