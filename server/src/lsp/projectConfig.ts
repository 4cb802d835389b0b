// The language server and `.kube-netlens.yaml` (model/configFile.ts, workspace/projectConfig.ts): the file at the
// root of the first workspace folder, as the editor holds it (open and unsaved, or on disk). documentSync.ts merges it
// over the settings and applies it again whenever the file changes; publish.ts adds its `ignore:` entries to the
// suppressions and shows what is wrong with it as diagnostics on the file itself (never a silent fallback: while it is
// invalid, none of its values apply and it says why).

import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { codeCatalog } from '../features/ruleCatalog';
import type { ConfigSuppression } from '../features/suppressions';
import { configFileName, ignoresOf, readConfigFile, type ConfigFile } from '../workspace/projectConfig';
import { readBounded, realRoots } from '../workspace/readBounded';
import { canonicalUri, pathOfUri } from '../workspace/uri';
import type { Finding } from './convert';
import { messages, type Locale } from '../l10n/l10n';

const knownCodes: ReadonlySet<string> = new Set(codeCatalog.map((c) => c.code));

export interface ProjectConfig {
  /** Whether `uri` is the config file (of the first workspace folder). */
  isConfig(uri: string): boolean;
  /** Reads the file again (its open text, else the disk); true when what it says changed. */
  update(text?: string): boolean;
  /** The display language of its errors (the client's, sent at initialize; undefined: English). */
  setLocale(locale: Locale | undefined): void;
  /** The folders changed: the config file is the one at the first folder's root. */
  setFolders(folders: readonly string[]): void;
  /** The valid file's values; undefined when there is no file or it is invalid. */
  readonly config: ConfigFile | undefined;
  /** Its errors as findings on the file. */
  findings(): readonly Finding[];
  ignores(): readonly ConfigSuppression[];
}

export function createProjectConfig(): ProjectConfig {
  let folder: string | undefined;
  let uri: string | undefined;
  let text: string | undefined;
  let config: ConfigFile | undefined;
  let problems: readonly Finding[] = [];
  let ignores: readonly ConfigSuppression[] = [];
  let locale: Locale | undefined;

  const parse = () => {
    config = undefined;
    problems = [];
    ignores = [];
    if (text === undefined || uri === undefined || folder === undefined) return;
    const parsed = readConfigFile(text, (code) => knownCodes.has(code), locale);
    const msg = messages(locale);
    const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
    problems = parsed.errors.map((e) => {
      const start = (lineStarts[e.line] ?? 0) + e.column;
      const lineEnd = text!.indexOf('\n', start);
      return {
        uri: uri!,
        span: { start, end: lineEnd === -1 ? text!.length : lineEnd },
        code: 'config-invalid',
        severity: 'error' as const,
        message: msg('{0}. While {1} is invalid, none of its values apply.', e.message, configFileName),
      };
    });
    if (!parsed.config) return;
    config = parsed.config;
    const base = folder;
    const rel = (u: string) => {
      const path = pathOfUri(u);
      if (path === undefined) return undefined;
      const r = relative(base, path).split(sep).join('/');
      return r.startsWith('../') ? undefined : r;
    };
    ignores = ignoresOf(config, rel, configFileName, { uri, text });
  };

  return {
    isConfig: (u) => u === uri,
    update(next) {
      if (uri === undefined || folder === undefined) return false;
      let read = next;
      if (read === undefined) {
        const r = readBounded(join(folder, configFileName), { maxBytes: 1024 * 1024, roots: realRoots([folder]) });
        read = r.ok ? r.text : undefined;
      }
      if (read === text) return false;
      text = read;
      parse();
      return true;
    },
    setLocale(next) {
      locale = next;
      parse();
    },
    setFolders(folders) {
      folder = folders[0];
      uri = folder === undefined ? undefined : canonicalUri(pathToFileURL(join(folder, configFileName)).href);
      text = undefined;
      this.update();
      parse();
    },
    get config() {
      return config;
    },
    findings: () => problems,
    ignores: () => ignores,
  };
}
