// Fairness between sandboxes on one isolate. Locally every sandbox shares the runtime's one
// thread, and an MCP batch fans its hundred tool calls out at once: a hundred tasks in the event
// loop ahead of a neighbour's call. A batch's calls go to its Durable Object a few at a time
// instead, in order; the Durable Object serves one call at a time anyway, so the batch loses
// almost nothing, and a neighbour waits behind a few calls, not a hundred.
//
// The limiter lives in one request: Workers does not let one request's promise wake another's,
// so calls of different requests are never queued behind each other here.

/** Tool calls of one MCP request in flight at once: two keeps its Durable Object busy across a round trip. */
export const CALLS_IN_FLIGHT_PER_REQUEST = 2;

/** Runs the work it is given at most `bound` at a time, in arrival order. */
export function callLimiter(bound = CALLS_IN_FLIGHT_PER_REQUEST) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (running >= bound) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
