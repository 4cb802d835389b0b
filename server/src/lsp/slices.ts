// Work in time slices: the steps of a generator (a sliced evaluation, engine/evaluate.ts) run for about `sliceMs` at a
// time, with a turn of the event loop between slices, so the requests that arrived meanwhile (a hover) are answered
// within a slice. The engine holds no timers; this is the scheduler that drives it.

/** How long one slice runs before requests get their turn. */
export const sliceMs = 10;

/**
 * Runs `steps` to the end, in slices, and resolves with the value; resolves undefined, leaving the work where it
 * was, when `abandon()` holds at the start of a slice (a newer snapshot made it pointless).
 */
export async function inSlices<T>(steps: Generator<void, T>, abandon: () => boolean = () => false): Promise<{ readonly value: T } | undefined> {
  for (let first = true; ; first = false) {
    if (!first) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (abandon()) {
        steps.return(undefined as never);
        return undefined;
      }
    }
    const until = performance.now() + sliceMs;
    for (;;) {
      const r = steps.next();
      if (r.done) return { value: r.value };
      if (performance.now() >= until) break;
    }
  }
}
