// The version printed by --version and written into SARIF: the package's own.

import { version } from '../../../package.json';

export const cliVersion: string = version;
