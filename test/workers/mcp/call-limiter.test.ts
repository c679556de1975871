// An MCP batch's tool calls reach the sandbox a few at a time (workers/mcp/call-limiter.ts), in
// arrival order, so a neighbour sandbox's call waits behind a few calls, not a whole batch.
import { describe, expect, it } from "vitest";
import { CALLS_IN_FLIGHT_PER_REQUEST, callLimiter } from "../../../workers/mcp/call-limiter";

/** A call that finishes when the test says so, recording when it started. */
function heldCall(log: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: () => {
      log.push(`start ${name}`);
      return done.then(() => name);
    },
    finish: () => finish(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a batch's calls pass a bounded few at a time, in order", () => {
  it("starts at most the bound at once and the rest as slots free, first come first served", async () => {
    const inTurn = callLimiter();
    const log: string[] = [];
    const calls = Array.from({ length: 5 }, (_, i) => heldCall(log, `c${i}`));
    const results = calls.map((call) => inTurn(call.run));
    await settle();
    expect(log).toEqual(calls.slice(0, CALLS_IN_FLIGHT_PER_REQUEST).map((_, i) => `start c${i}`));
    calls[1].finish();
    await settle();
    expect(log.at(-1)).toBe(`start c${CALLS_IN_FLIGHT_PER_REQUEST}`);
    for (const call of calls) call.finish();
    expect(await Promise.all(results)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(log).toEqual(["start c0", "start c1", "start c2", "start c3", "start c4"]);
  });

  it("passes the slot on when a call fails", async () => {
    const inTurn = callLimiter(1);
    const failing = inTurn(() => Promise.reject(new Error("refused")));
    const next = inTurn(() => Promise.resolve("served"));
    await expect(failing).rejects.toThrow("refused");
    expect(await next).toBe("served");
  });

  it("keeps each limiter to itself: another batch is not held up", async () => {
    const log: string[] = [];
    const busy = callLimiter(1);
    const held = heldCall(log, "a0");
    const pending = busy(held.run);
    expect(await callLimiter(1)(() => Promise.resolve("neighbour served"))).toBe("neighbour served");
    held.finish();
    expect(await pending).toBe("a0");
  });
});
