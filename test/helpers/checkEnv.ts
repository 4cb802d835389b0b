// The one place tests call serviceEnv: the variables as `NAME=value` lines.

import type { Analysis } from '../../server/src/analysis/analysis';

export function envLines(analysis: Analysis, namespace: string, enableServiceLinks?: boolean): string[] {
  return analysis.serviceEnv(namespace, enableServiceLinks).map((v) => `${v.name}=${v.value}`);
}
