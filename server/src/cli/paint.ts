// ANSI colours for text output, only when stdout is a terminal and NO_COLOR is unset (https://no-color.org).

export interface Paint {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly blue: (s: string) => string;
  readonly cyan: (s: string) => string;
}

const plain = (s: string): string => s;

export function paintFor(enabled: boolean): Paint {
  if (!enabled) return { bold: plain, dim: plain, red: plain, yellow: plain, blue: plain, cyan: plain };
  const sgr = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), blue: sgr(34, 39), cyan: sgr(36, 39) };
}

export function colourWanted(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}
