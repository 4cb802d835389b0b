// `.kube-netlens.yaml`: the repository's configuration, shared by the editor and the CLI (docs/configuration.md). Its
// keys are those of the `kubeNetlens.*` settings it may set, plus `ignore:` entries; schemas/kube-netlens.schema.json
// describes the same shape for editors. Parsing is strict: an unknown key, a wrong type or a bad value is an error at
// its line, never a value quietly dropped. What names a program (helm or kustomize paths) is not a key of this file:
// those come from the user's own settings only. Pure: text → value or errors.

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { ingressControllerOf, loadRestrictors, ruleLevels, type IngressControllerSetting, type LoadRestrictor, type RuleLevel } from './config';
import { isDns1123Label, isDns1123Subdomain } from './dnsNames';
import { messages, phrase, say, type Locale, type Phrase, type PhraseArg } from '../l10n/l10n';
import type { Span } from './span';

export const configFileName = '.kube-netlens.yaml';

/** One `ignore:` entry: findings of `code` whose object and file match every field given are ignored, for `reason`. */
export interface ConfigIgnore {
  readonly code: string;
  readonly kind?: string;
  readonly namespace?: string;
  /** A glob over the object's name (`*` any characters). */
  readonly name?: string;
  /** A glob over the finding's file, relative to the config file's folder. */
  readonly path?: string;
  readonly reason: string;
  /** Where the entry is written (0-based line), for the note on an entry that matches nothing. */
  readonly line: number;
}

/**
 * An `ignore:` entry with its globs compiled (workspace/projectConfig.ts `ignoresOf`): it ignores the findings of
 * `code` whose object and file match every field it gives (features/suppressions.ts).
 */
export interface ConfigSuppression {
  readonly code: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: (name: string) => boolean;
  readonly path?: (uri: string) => boolean;
  readonly reason: string;
  /** `ignore entry at .kube-netlens.yaml:12`, worded where it is shown (features/suppressions.ts). */
  readonly label: Phrase;
  /** The entry in the config file, for the note when it matches nothing. */
  readonly place?: { readonly uri: string; readonly span: Span };
}

export interface ConfigHelmRelease {
  readonly chart: string;
  readonly name: string;
  readonly namespace?: string;
  readonly values: readonly string[];
  readonly set: readonly string[];
}

/** The file's settings, in the shape of the `kubeNetlens.*` settings (workspace/settings.ts reads them the same way). */
export interface ConfigFile {
  readonly rules?: Readonly<Record<string, RuleLevel>>;
  readonly files?: { readonly include?: readonly string[]; readonly exclude?: readonly string[] };
  readonly kustomize?: { readonly roots?: readonly string[]; readonly loadRestrictor?: LoadRestrictor };
  readonly helm?: { readonly releases?: readonly ConfigHelmRelease[] };
  readonly clusterDomain?: string;
  readonly defaultNamespace?: string;
  readonly nodePortRange?: string;
  /** The ingress controller's namespace and pod labels, for when the workspace does not describe it. */
  readonly ingressController?: IngressControllerSetting;
  readonly ignore?: readonly ConfigIgnore[];
}

export interface ConfigError {
  /** 0-based line and column. */
  readonly line: number;
  readonly column: number;
  /** Worded in `ConfigCheck.locale`, from a phrase of the catalogue (`at` takes nothing else). */
  readonly message: string;
}

export interface ParsedConfig {
  readonly config?: ConfigFile;
  readonly errors: readonly ConfigError[];
}

export interface ConfigCheck {
  /** Why a glob pattern cannot be used, or undefined. */
  readonly glob: (pattern: string) => Phrase | undefined;
  /** Whether a code exists (docs/rules.md); without it any code-shaped name is taken. */
  readonly code?: (code: string) => boolean;
  /** The language of the errors (undefined: English). */
  readonly locale?: Locale;
}

export function parseConfigFile(text: string, check: ConfigCheck): ParsedConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
  const errors: ConfigError[] = [];
  const msg = messages(check.locale);
  // every error is a phrase of the catalogue (a plain string does not compile), worded in the asked locale
  const at = (node: { range?: [number, number, number] | null } | null | undefined, reason: Phrase) => {
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    errors.push({ line: pos.line - 1, column: pos.col - 1, message: say(reason, msg) });
  };
  for (const e of doc.errors) {
    const pos = lines.linePos(e.pos[0]);
    errors.push({ line: pos.line - 1, column: pos.col - 1, message: say(phrase('YAML syntax error: {0}', e.message.split('\n')[0]), msg) });
  }
  if (errors.length) return { errors };
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return { config: {}, errors: [] };
  if (!isMap(root)) {
    at(
      root,
      phrase(
        '{0} must be a mapping of settings (rules, files, kustomize, helm, clusterDomain, defaultNamespace, nodePortRange, ingressController, ignore)',
        configFileName,
      ),
    );
    return { errors };
  }

  const str = (node: unknown, what: PhraseArg): string | undefined => {
    if (isScalar(node) && typeof node.value === 'string' && node.value.trim()) return node.value.trim();
    at(node as YamlNode, phrase('{0} must be a non-empty string', what));
    return undefined;
  };
  const strings = (node: unknown, what: string, glob = false): string[] | undefined => {
    if (!isSeq(node)) {
      at(node as YamlNode, phrase('{0} must be a list of strings', what));
      return undefined;
    }
    const out: string[] = [];
    for (const item of node.items) {
      const s = str(item, phrase('each item of {0}', what));
      if (s === undefined) continue;
      const why = glob ? check.glob(s) : undefined;
      if (why) at(item as YamlNode, phrase('{0}: the pattern {1} cannot be used ({2})', what, JSON.stringify(s), why));
      else out.push(s);
    }
    return out;
  };
  const mapOf = (node: unknown, what: PhraseArg, keys: readonly string[]): Map<string, Pair<unknown, unknown>> | undefined => {
    if (!isMap(node)) {
      at(node as YamlNode, phrase('{0} must be a mapping', what));
      return undefined;
    }
    const out = new Map<string, Pair<unknown, unknown>>();
    for (const pair of (node as YAMLMap<unknown, unknown>).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined || !keys.includes(key)) {
        at(pair.key as YamlNode, phrase('{0} has no key {1}; the keys are {2}', what, JSON.stringify(key ?? '?'), keys.join(', ')));
        continue;
      }
      out.set(key, pair);
    }
    return out;
  };

  const top = mapOf(root, configFileName, [
    'rules',
    'files',
    'kustomize',
    'helm',
    'clusterDomain',
    'defaultNamespace',
    'nodePortRange',
    'ingressController',
    'ignore',
  ])!;
  const config: { -readonly [K in keyof ConfigFile]: ConfigFile[K] } = {};
  const value = (key: string) => top.get(key)?.value;

  if (top.has('rules')) {
    const rules: Record<string, RuleLevel> = {};
    const node = value('rules');
    if (!isMap(node)) at(node as YamlNode, phrase('rules must be a mapping of codes to {0}', ruleLevels.join(', ')));
    else {
      for (const pair of node.items) {
        const code = isScalar(pair.key) ? String(pair.key.value) : '';
        const level = isScalar(pair.value) ? String(pair.value.value) : undefined;
        if (!/^[a-z0-9-]+$/.test(code) || (check.code && !check.code(code)))
          at(pair.key as YamlNode, phrase('rules: {0} is not a code of kube-netlens (docs/rules.md lists them)', JSON.stringify(code)));
        else if (!level || !(ruleLevels as readonly string[]).includes(level))
          at((pair.value ?? pair.key) as YamlNode, phrase('rules.{0} must be one of {1}', code, ruleLevels.join(', ')));
        else rules[code] = level as RuleLevel;
      }
    }
    config.rules = rules;
  }
  if (top.has('files')) {
    const files = mapOf(value('files'), 'files', ['include', 'exclude']);
    if (files) {
      config.files = {
        ...(files.has('include') && { include: strings(files.get('include')!.value, 'files.include', true) }),
        ...(files.has('exclude') && { exclude: strings(files.get('exclude')!.value, 'files.exclude', true) }),
      };
    }
  }
  if (top.has('kustomize')) {
    const k = mapOf(value('kustomize'), 'kustomize', ['roots', 'loadRestrictor']);
    if (k) {
      let loadRestrictor: LoadRestrictor | undefined;
      if (k.has('loadRestrictor')) {
        const node = k.get('loadRestrictor')!.value;
        const v = isScalar(node) ? String(node.value) : '';
        if ((loadRestrictors as readonly string[]).includes(v)) loadRestrictor = v as LoadRestrictor;
        else at(node as YamlNode, phrase('kustomize.loadRestrictor must be one of {0}', loadRestrictors.join(', ')));
      }
      config.kustomize = {
        ...(k.has('roots') && { roots: strings(k.get('roots')!.value, 'kustomize.roots', true) }),
        ...(loadRestrictor && { loadRestrictor }),
      };
    }
  }
  if (top.has('helm')) {
    const h = mapOf(value('helm'), 'helm', ['releases']);
    const node = h?.get('releases')?.value;
    if (h?.has('releases')) {
      const releases: ConfigHelmRelease[] = [];
      if (!isSeq(node)) at(node as YamlNode, phrase('helm.releases must be a list of {0}', '{chart, name, namespace, values, set}'));
      else {
        for (const item of node.items) {
          const r = mapOf(item, phrase('each helm release'), ['chart', 'name', 'namespace', 'values', 'set']);
          if (!r) continue;
          if (!r.has('chart') || !r.has('name')) {
            at(item as YamlNode, phrase('a helm release needs chart (its folder) and name'));
            continue;
          }
          const chart = str(r.get('chart')!.value, 'helm.releases[].chart');
          const name = str(r.get('name')!.value, 'helm.releases[].name');
          if (name && (!isDns1123Label(name) || name.length > 53))
            at(r.get('name')!.value as YamlNode, phrase('the release name {0} is not a DNS label of at most 53 characters', JSON.stringify(name)));
          const namespace = r.has('namespace') ? str(r.get('namespace')!.value, 'helm.releases[].namespace') : undefined;
          if (namespace && !isDns1123Label(namespace))
            at(r.get('namespace')!.value as YamlNode, phrase('the namespace {0} is not a valid namespace name', JSON.stringify(namespace)));
          const values = r.has('values') ? strings(r.get('values')!.value, 'helm.releases[].values') : [];
          const set = r.has('set') ? strings(r.get('set')!.value, 'helm.releases[].set') : [];
          for (const s of set ?? [])
            if (!/^[^=]+=/.test(s)) at(r.get('set')!.value as YamlNode, phrase('helm.releases[].set: {0} is not KEY=VALUE', JSON.stringify(s)));
          if (chart && name)
            releases.push({ chart, name, ...(namespace && { namespace }), values: values ?? [], set: (set ?? []).filter((s) => /^[^=]+=/.test(s)) });
        }
      }
      config.helm = { releases };
    }
  }
  if (top.has('clusterDomain')) {
    const d = str(value('clusterDomain'), 'clusterDomain')?.replace(/\.$/, '');
    if (d && !isDns1123Subdomain(d)) at(value('clusterDomain') as YamlNode, phrase('clusterDomain {0} is not a valid DNS domain', JSON.stringify(d)));
    else if (d) config.clusterDomain = d;
  }
  if (top.has('defaultNamespace')) {
    const ns = str(value('defaultNamespace'), 'defaultNamespace');
    if (ns && !isDns1123Label(ns)) at(value('defaultNamespace') as YamlNode, phrase('defaultNamespace {0} is not a valid namespace name', JSON.stringify(ns)));
    else if (ns) config.defaultNamespace = ns;
  }
  if (top.has('nodePortRange')) {
    const node = value('nodePortRange');
    const m = isScalar(node) ? /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(String(node.value)) : null;
    const [lo, hi] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    if (!m || lo < 1 || hi > 65535 || lo > hi)
      at(node as YamlNode, phrase('nodePortRange must be FIRST-LAST, as kube-apiserver --service-node-port-range (e.g. 30000-32767)'));
    else config.nodePortRange = `${lo}-${hi}`;
  }
  if (top.has('ingressController')) {
    const node = value('ingressController');
    // Label values are strings: a number or boolean written unquoted is an error here, as it is in a pod's labels.
    const read = ingressControllerOf(isMap(node) || isSeq(node) || isScalar(node) ? (node as YamlNode).toJSON() : undefined);
    if ('problem' in read) at(node as YamlNode, read.problem);
    else config.ingressController = read;
  }
  if (top.has('ignore')) {
    const node = value('ignore');
    const ignore: ConfigIgnore[] = [];
    if (!isSeq(node)) at(node as YamlNode, phrase('ignore must be a list of {0}', '{code, kind, namespace, name, path, reason}'));
    else {
      for (const item of node.items) {
        const e = mapOf(item, phrase('each ignore entry'), ['code', 'kind', 'namespace', 'name', 'path', 'reason']);
        if (!e) continue;
        if (!e.has('code') || !e.has('reason')) {
          at(item as YamlNode, phrase('an ignore entry needs code and reason (say why the findings are intended)'));
          continue;
        }
        const field = (k: string) => (e.has(k) ? str(e.get(k)!.value, `ignore[].${k}`) : undefined);
        const entry = {
          code: field('code'),
          kind: field('kind'),
          namespace: field('namespace'),
          name: field('name'),
          path: field('path'),
          reason: field('reason'),
        };
        for (const k of ['name', 'path'] as const) {
          const why = entry[k] === undefined ? undefined : check.glob(entry[k]!);
          if (why) at(e.get(k)!.value as YamlNode, phrase('ignore[].{0}: the pattern {1} cannot be used ({2})', k, JSON.stringify(entry[k]), why));
        }
        if (entry.code && check.code && !check.code(entry.code))
          at(
            e.get('code')!.value as YamlNode,
            phrase('ignore[].code: {0} is not a code of kube-netlens (docs/rules.md lists them)', JSON.stringify(entry.code)),
          );
        if (!entry.code || !entry.reason) continue;
        const pos = lines.linePos((item as YamlNode).range?.[0] ?? 0);
        ignore.push({
          code: entry.code,
          ...(entry.kind && { kind: entry.kind }),
          ...(entry.namespace && { namespace: entry.namespace }),
          ...(entry.name && { name: entry.name }),
          ...(entry.path && { path: entry.path }),
          reason: entry.reason,
          line: pos.line - 1,
        });
      }
    }
    config.ignore = ignore;
  }
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  return errors.length ? { errors } : { config, errors: [] };
}
