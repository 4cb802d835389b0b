// Preloaded by bench/repo.ts into `kube-netlens check` (node --import): at exit, writes the process's peak resident
// set size in KB (getrusage's ru_maxrss) to the file KUBE_NETLENS_BENCH_RSS_FILE names. Bench only.
import { writeFileSync } from 'node:fs';

const file = process.env.KUBE_NETLENS_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
