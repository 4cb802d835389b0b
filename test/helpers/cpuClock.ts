// The CPU time this process spends, for the tests that bound how long a hostile input may take: wall time counts
// the other work of a busy machine (a CI runner, parallel jobs) and fails for the load, CPU time does not. Only for
// work done in this process, synchronously; speed itself is measured by the benchmark (bench/README.md).

/** A clock started now: each call answers the milliseconds of CPU (user + system) this process used since. */
export function cpuClock(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return Math.round((used.user + used.system) / 1000);
  };
}
