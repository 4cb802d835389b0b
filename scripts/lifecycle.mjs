// How `npm start` ends: on SIGINT, SIGTERM or SIGHUP, and when the process that started it ends (npm killed, the
// terminal closed, a tool that started it gone), it stops what it runs, code-server and everything code-server started.
//
// package.json runs `exec node scripts/start.mjs`: without `exec`, npm's shell stands between npm and this process,
// and the signals npm forwards (SIGINT, SIGTERM) stop at the shell. npm forwards no SIGHUP and a SIGKILL nothing:
// then the parent's end is noticed here, as the parent process id changes (Linux gives an orphan to init or to a
// subreaper).

/**
 * Calls `stop(reason)` once, on the first of SIGINT, SIGTERM, SIGHUP or the end of the parent process.
 * `stop` is expected to end the process. Later signals change nothing (Ctrl-C in a terminal reaches this process
 * twice: from the terminal, and forwarded by npm), as stopping takes at most a few seconds.
 */
export function stopWhenAsked(stop, { pollMs = 500 } = {}) {
  const parent = process.ppid;
  let stopping = false;
  const once = (reason) => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    void Promise.resolve()
      .then(() => stop(reason))
      .catch((e) => {
        process.stderr.write(`stopping failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => once(signal));
  // A terminal that closed makes writes fail (EIO, EPIPE): that must not end the process before it has stopped.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const watch = setInterval(() => {
    if (process.ppid !== parent) once(`the process that started it (${parent}) ended`);
  }, pollMs);
  watch.unref();
  return {
    get stopping() {
      return stopping;
    },
  };
}
