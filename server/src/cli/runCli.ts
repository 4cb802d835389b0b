// One command line → one result. Pure apart from reading the files it is pointed at.

import { buildCommand } from './buildCommand';
import { checkCommand } from './checkCommand';
import { failure, type CommandResult, type Terminal } from './commandResult';
import { diffCommand } from './diffCommand';
import { dnsCommand } from './dnsCommand';
import { parseArgs } from './parseArgs';
import { reachCommand } from './reachCommand';
import { traceCommand } from './traceCommand';
import { helpText } from './usage';
import { cliVersion } from './version';
import { localeFromEnv, localeOf, locales, messages, type Locale } from '../l10n/l10n';

/**
 * `--lang LOCALE` (or `--lang=LOCALE`), anywhere on the line, taken out before the command is parsed: the language of
 * messages, help and summaries (docs/localization.md). Without it the locale environment decides.
 */
function takeLang(argv: readonly string[], env: Terminal['env']): { readonly argv: readonly string[]; readonly locale?: Locale } | { readonly error: string } {
  // an unknown --lang is reported in the language of the environment
  const msg = messages(localeFromEnv(env));
  const rest: string[] = [];
  let locale: Locale | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg !== '--lang' && !arg.startsWith('--lang=')) {
      rest.push(arg);
      continue;
    }
    const value = arg === '--lang' ? argv[++i] : arg.slice('--lang='.length);
    const known = localeOf(value);
    if (!known) return { error: msg("option --lang must be one of {0} (got '{1}')", locales.join(', '), value ?? '') };
    locale = known;
  }
  return locale ? { argv: rest, locale } : { argv: rest };
}

export function runCli(argv: readonly string[], terminal: Terminal): CommandResult {
  const lang = takeLang(argv, terminal.env);
  if ('error' in lang) return failure(lang.error);
  const locale = lang.locale ?? localeFromEnv(terminal.env);
  const parsed = parseArgs(lang.argv, messages(locale));
  const request = locale === 'en' || !('paths' in parsed || parsed.command === 'build') ? parsed : { ...parsed, locale };
  switch (request.command) {
    case 'usage-error':
      return failure(request.message);
    case 'help':
      return { exitCode: 0, stdout: helpText(request.topic, messages(locale)), stderr: [] };
    case 'version':
      return { exitCode: 0, stdout: `${cliVersion}\n`, stderr: [] };
    case 'check':
      return checkCommand(request, terminal);
    case 'dns':
      return dnsCommand(request, terminal);
    case 'trace':
      return traceCommand(request, terminal);
    case 'build':
      return buildCommand(request, terminal);
    case 'reach':
      return reachCommand(request, terminal);
    case 'diff':
      return diffCommand(request, terminal);
  }
}
