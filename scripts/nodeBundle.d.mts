// Types of scripts/nodeBundle.mjs for the TypeScript benchmark.
import type { BuildOptions } from 'esbuild';

export declare const nodeBundle: BuildOptions;
export declare function nonAsciiLines(file: string, max?: number): string[];
