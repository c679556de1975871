// Timed work cannot brick a sandbox (durable-objects/timed.ts): a delivery that throws is undone,
// recorded in `_delivery_failures` and dropped, and the call it rode on is served as usual.
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Db } from "../../../durable-objects/sql";
import { enqueueWebhook, flushOutbox } from "../../../durable-objects/outbox";
import { fireDue, schedule } from "../../../durable-objects/timed";
import { twinById } from "../../../durable-objects/twins/registry";
import type { Clock, TwinDefinition } from "../../../durable-objects/twins/types";
import { sandboxStub } from "../../../workers/stubs";
import { acmeSeed } from "../slack/fixtures";
import { slackSandbox } from "../slack/client";

afterEach(() => vi.restoreAllMocks());

describe("a delivery that throws is undone and dropped; the call it rode on stands", () => {
  it("keeps the call's writes and the other deliveries, and leaves nothing of the failed one but its record", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const rows = await runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
      const db = new Db(state.storage.sql);
      db.run("CREATE TABLE t_written (what TEXT NOT NULL)");
      // A real twin's definition whose delivery writes, then throws for one kind.
      const slack = twinById("slack");
      const flaky: TwinDefinition = {
        ...slack,
        deliver: (d, _clock, kind) => {
          d.run("INSERT INTO t_written (what) VALUES (?)", `${kind} delivery`);
          if (kind === "broken") throw new Error("half-written, then failed");
        },
      };
      const twinFor = (id: string) => (id === slack.id ? flaky : undefined);
      const clock: Clock = { now: () => 1_000 };
      const savepoint = <T>(work: () => T): T => state.storage.transactionSync(work);
      schedule(db, slack.id, "broken", { token: "xoxb-never-in-a-log" }, { calls: 0 }, clock.now());
      schedule(db, slack.id, "sound", {}, { calls: 0 }, clock.now());
      state.storage.transactionSync(() => {
        db.run("INSERT INTO t_written (what) VALUES ('the call')");
        fireDue(db, clock, twinFor, false, savepoint);
      });
      // Nothing is left to fire: the next call is not served the failure again.
      state.storage.transactionSync(() => fireDue(db, clock, twinFor, true, savepoint));
      return {
        written: db.all<{ what: string }>("SELECT what FROM t_written ORDER BY rowid").map((r) => r.what),
        scheduled: db.all("SELECT id FROM _scheduled"),
        failures: db.all("SELECT twin, kind, failed_at, error FROM _delivery_failures"),
      };
    });
    expect(rows).toEqual({
      written: ["the call", "sound delivery"],
      scheduled: [],
      failures: [{ twin: "slack", kind: "broken", failed_at: 1_000, error: "half-written, then failed" }],
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain("xoxb-never-in-a-log");
  });
});

describe("a sandbox whose timed delivery throws keeps answering", () => {
  it("serves the call the delivery was due at, and every call after it, through the official client", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    // Before the sandbox's first call, a scheduled message whose stored row cannot be read: its
    // delivery throws when it fires, just before that call.
    const channel = await runInDurableObject(sandboxStub(env, sandbox.session_id), (_instance, state) => {
      const id = String(state.storage.sql.exec<{ id: string }>("SELECT id FROM sl_channels ORDER BY id LIMIT 1").one().id);
      state.storage.sql.exec(
        "INSERT INTO sl_scheduled (id, channel, post_at, created, data) VALUES ('Q_BROKEN', ?, 0, 0, '{not json')",
        id,
      );
      state.storage.sql.exec(
        "INSERT INTO _scheduled (twin, kind, payload, calls_left, due_at) VALUES ('slack', 'scheduled_message', '{\"id\":\"Q_BROKEN\"}', NULL, 0)",
      );
      return id;
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // Before, this call and every later one of the sandbox answered 500.
    const posted = await web.chat.postMessage({ channel, text: "still here" });
    expect(posted.ok).toBe(true);
    expect((await web.conversations.history({ channel })).messages?.[0]?.text).toBe("still here");
    expect((await web.auth.test()).ok).toBe(true);
    const left = await runInDurableObject(sandboxStub(env, sandbox.session_id), (_instance, state) => ({
      // The seeded world schedules a reminder of its own, still due later; the broken one is gone.
      broken: state.storage.sql.exec("SELECT id FROM _scheduled WHERE instr(payload, 'Q_BROKEN') > 0").toArray(),
      failures: state.storage.sql.exec("SELECT twin, kind FROM _delivery_failures").toArray(),
    }));
    expect(left).toEqual({ broken: [], failures: [{ twin: "slack", kind: "scheduled_message" }] });
  });
});

describe("a webhook that throws while it is signed or sent is recorded as failed, never thrown", () => {
  it("records the signing failure and still sends the next delivery", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const sent: string[] = [];
    const result = await runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), async (_instance, state) => {
      const db = new Db(state.storage.sql);
      const stripe = twinById("stripe");
      const unsignable: TwinDefinition = {
        ...stripe,
        signWebhook: async ({ secret }) => {
          if (secret === "whsec_broken") throw new Error("cannot sign");
          return { "x-signed": "yes" };
        },
      };
      enqueueWebhook(db, stripe.id, { url: "http://127.0.0.1:4010/a", body: "{}", secret: "whsec_broken" });
      enqueueWebhook(db, stripe.id, { url: "http://127.0.0.1:4010/a", body: "{}", secret: "whsec_fine" });
      await flushOutbox(db, {
        twinFor: (id) => (id === stripe.id ? unsignable : undefined),
        egress: () => ({ allowed: true }),
        send: async (input) => {
          sent.push(String(input));
          return new Response("ok");
        },
      });
      return {
        outbox: db.all("SELECT attempts, delivered_at IS NOT NULL AS delivered, last_status FROM _outbox ORDER BY id"),
        failures: db.all("SELECT twin, kind, error FROM _delivery_failures"),
      };
    });
    expect(sent).toEqual(["http://127.0.0.1:4010/a"]);
    expect(result).toEqual({
      outbox: [
        { attempts: 1, delivered: 0, last_status: 0 },
        { attempts: 1, delivered: 1, last_status: 200 },
      ],
      failures: [{ twin: "stripe", kind: "webhook", error: "cannot sign" }],
    });
  });
});
