// Suppressions in the editor, over stdio: "Ignore <code> here…" (and, on a workload, "… on the pod template…") offers the annotation edit (the reason comes from the
// client, as client/src/ignoreFinding.ts asks for it), the finding then shows as a faded hint with its reason, and a
// suppression nothing matches any more is reported as information.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ignoreAnnotationValue, type IgnoreFindingArgs } from '../../server/src/protocol';
import { startServer, type TestClient } from './lspClient';

interface Pos {
  line: number;
  character: number;
}
interface Action {
  title: string;
  isPreferred?: boolean;
  command?: { command: string; arguments: IgnoreFindingArgs[] };
}

const app = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers: [{name: main, image: nginx}]
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  selector: {app: operator-made}
  ports: [{port: 80}]
`;

function offsetAt(text: string, p: Pos): number {
  const lines = text.split('\n');
  return lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
}

describe('language server: kube-netlens.io/ignore', () => {
  let dir: string;
  let client: TestClient;
  const uri = () => pathToFileURL(join(dir, 'app.yaml')).href;
  let text = app;
  let version = 1;
  const diagnostics = () => client.diagnostics.get(uri())?.diagnostics ?? [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-ignore-'));
    writeFileSync(join(dir, 'app.yaml'), app);
    client = startServer();
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: { publishDiagnostics: { versionSupport: true, tagSupport: { valueSet: [1, 2] } } },
      },
    });
    await client.connection.sendNotification('initialized', {});
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(), languageId: 'yaml', version, text } });
  });

  after(() => {
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const change = async (next: string) => {
    text = next;
    version++;
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(), version }, contentChanges: [{ text }] });
    await client.waitFor(`diagnostics of version ${version}`, () => client.diagnostics.get(uri())?.version === version);
  };

  it('offers "Ignore <code> here…" after the fixes; with a reason, the finding turns into a faded hint that says it', async () => {
    const finding = await client.waitFor('service-selector-no-match', () => diagnostics().find((d) => d.code === 'service-selector-no-match'));
    assert.equal(finding.severity, 2);
    const actions = await client.connection.sendRequest<Action[]>('textDocument/codeAction', {
      textDocument: { uri: uri() },
      range: finding.range,
      context: { diagnostics: [finding], only: ['quickfix'] },
    });
    const ignore = actions.find((a) => a.title === 'Ignore service-selector-no-match here…');
    assert.ok(ignore, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(!ignore.isPreferred);
    assert.equal(actions[actions.length - 1], ignore, 'after the rule’s own fixes');
    assert.equal(ignore.command?.command, 'kubeNetlens.ignoreFinding');
    const args = ignore.command.arguments[0];
    assert.equal(args.uri, uri());
    // what the client does once the user typed a reason
    const start = offsetAt(text, args.range.start);
    const end = offsetAt(text, args.range.end);
    await change(text.slice(0, start) + args.before + ignoreAnnotationValue(args, 'the operator creates these pods') + args.after + text.slice(end));
    assert.match(
      text,
      /metadata:\n {2}annotations:\n {4}kube-netlens\.io\/ignore: "service-selector-no-match: the operator creates these pods"\n {2}name: web\n {2}namespace: shop\nspec:\n {2}selector: \{app: operator-made\}/,
    );
    const hint = diagnostics().find((d) => d.code === 'service-selector-no-match');
    assert.ok(hint, JSON.stringify(diagnostics()));
    assert.equal(hint.severity, 4, 'a hint');
    assert.deepEqual(hint.tags, [1], 'faded (Unnecessary)');
    assert.match(hint.message, /^Ignored \(annotation on Service shop\/web: the operator creates these pods\): /);
    const again = await client.connection.sendRequest<Action[]>('textDocument/codeAction', {
      textDocument: { uri: uri() },
      range: hint.range,
      context: { diagnostics: [hint], only: ['quickfix'] },
    });
    assert.ok(!again.some((a) => a.title.startsWith('Ignore ')), 'an ignored finding offers no second annotation');
  });

  it('ignores on another object its own way (a second annotation), and reports a suppression that matches nothing as information', async () => {
    await change(text.replace('matchLabels: {app: web}', 'matchLabels: {app: webb}'));
    const mismatch = diagnostics().find((d) => d.code === 'workload-selector-mismatch');
    assert.ok(mismatch, JSON.stringify(diagnostics()));
    const actions = await client.connection.sendRequest<Action[]>('textDocument/codeAction', {
      textDocument: { uri: uri() },
      range: mismatch.range,
      context: { diagnostics: [mismatch], only: ['quickfix'] },
    });
    // a workload offers its pod template too, after its own metadata (features/ignoreFix.ts)
    assert.deepEqual(
      actions.filter((a) => a.title.startsWith('Ignore ')).map((a) => a.title),
      ['Ignore workload-selector-mismatch here…', 'Ignore workload-selector-mismatch on the pod template…'],
    );
    const args = actions.find((a) => a.title === 'Ignore workload-selector-mismatch here…')!.command!.arguments[0];
    const start = offsetAt(text, args.range.start);
    await change(text.slice(0, start) + args.before + ignoreAnnotationValue(args, 'a migration') + args.after + text.slice(offsetAt(text, args.range.end)));
    assert.match(text, /kind: Deployment\nmetadata:\n {2}annotations:\n {4}kube-netlens\.io\/ignore: "workload-selector-mismatch: a migration"\n {2}name: web/);
    assert.equal(diagnostics().find((d) => d.code === 'workload-selector-mismatch')?.severity, 4);
    // the Service's selector fixed: its suppression matches nothing
    await change(text.replace('{app: operator-made}', '{app: web}'));
    const unused = diagnostics().find((d) => d.code === 'ignore-unused');
    assert.ok(unused, JSON.stringify(diagnostics()));
    assert.equal(unused.severity, 3, 'information');
    assert.equal(
      unused.range.start.line,
      text.split('\n').findIndex((l) => l.includes('service-selector-no-match: the operator')),
    );
  });

  it('"Ignore <code> on the pod template…" annotates the pods’ metadata, and the finding turns into a hint that says so', async () => {
    // the Deployment's own annotation from before taken out: the mismatch is reported again
    await change(
      text.replace(
        /kind: Deployment\nmetadata:\n {2}annotations:\n {4}kube-netlens\.io\/ignore: "workload-selector-mismatch: a migration"\n/,
        'kind: Deployment\nmetadata:\n',
      ),
    );
    const mismatch = await client.waitFor('workload-selector-mismatch reported again', () =>
      diagnostics().find((d) => d.code === 'workload-selector-mismatch' && d.severity !== 4),
    );
    const actions = await client.connection.sendRequest<Action[]>('textDocument/codeAction', {
      textDocument: { uri: uri() },
      range: mismatch.range,
      context: { diagnostics: [mismatch], only: ['quickfix'] },
    });
    const onTemplate = actions.find((a) => a.title === 'Ignore workload-selector-mismatch on the pod template…');
    assert.ok(onTemplate, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(onTemplate.command?.command, 'kubeNetlens.ignoreFinding');
    const args = onTemplate.command.arguments[0];
    assert.equal(args.onPodTemplate, true, 'the client’s input box says where the annotation goes');
    await change(
      text.slice(0, offsetAt(text, args.range.start)) +
        args.before +
        ignoreAnnotationValue(args, 'the chart sets pod annotations only') +
        args.after +
        text.slice(offsetAt(text, args.range.end)),
    );
    assert.match(text, /kind: Deployment\nmetadata:\n {2}name: web\n/, 'the Deployment’s metadata is left alone');
    assert.match(
      text,
      /\n {2}template:\n {4}metadata:\n {6}annotations:\n {8}kube-netlens\.io\/ignore: "workload-selector-mismatch: the chart sets pod annotations only"\n {6}labels: \{app: web\}\n/,
    );
    const hint = diagnostics().find((d) => d.code === 'workload-selector-mismatch');
    assert.equal(hint?.severity, 4, JSON.stringify(diagnostics()));
    assert.match(hint.message, /^Ignored \(annotation on the pod template of Deployment shop\/web: the chart sets pod annotations only\): /);
  });
});
