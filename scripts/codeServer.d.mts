// Types of scripts/codeServer.mjs for the TypeScript end-to-end harness.
import type { ChildProcess } from 'node:child_process';

export declare const root: string;
export declare const codeServerDir: string;
export declare const codeServerEntry: string;
export declare const quietSettings: Readonly<Record<string, unknown>>;
export declare function ensureCodeServer(options?: { quiet?: boolean }): void;
export declare function vsixPath(): string;
export declare function ensureVsix(options?: { force?: boolean }): Promise<string>;
export declare function prepareProfile(dir: string, vsix: string, settings?: Record<string, unknown>): { userDataDir: string; extensionsDir: string };
export declare function installExtension(dir: string, profile: { userDataDir: string; extensionsDir: string }, vsix: string): void;
export declare function freePort(): Promise<number>;
export interface RunningCodeServer {
  readonly pid: number;
  readonly url: string;
  readonly exited: Promise<number | string | null>;
  log(): string;
  stop(): Promise<void>;
}
export declare function startCodeServer(options: {
  userDataDir: string;
  extensionsDir: string;
  folder: string;
  port: number;
  host?: string;
  onOutput?: (line: string) => void;
  /** HOME for code-server and the extension host (tests point it at an empty folder to prove nothing lands there). */
  home?: string;
  /** `--locale`: VS Code's display language (a language pack for it must be installed in the profile). */
  locale?: string;
}): Promise<RunningCodeServer>;
export declare function stopProcessGroup(child: ChildProcess): Promise<void>;
export declare function within<T, U>(promise: Promise<T>, ms: number, onTimeout: () => U): Promise<T | U>;
