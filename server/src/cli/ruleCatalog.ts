// The registered rules' metadata, for SARIF's rule table.

// The dependency rule keeps cli/ off rules/; until features/ exposes the catalogue, this is the one crossing.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { rules } from '../rules/index';
import type { RuleInfo } from './featureTypes';

export const ruleCatalog: readonly RuleInfo[] = rules.map((r) => ({ code: r.code, title: r.title, description: r.description, defaultSeverity: r.defaultSeverity }));
