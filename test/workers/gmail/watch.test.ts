// users.watch and users.stop through googleapis: after a change, each push subscription of the
// watched topic gets Pub/Sub's envelope carrying Gmail's {emailAddress, historyId}, sent by the
// platform's delivery mechanism; stop ends them, a label filter narrows them.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseGmailSeed } from "../../../durable-objects/twins/gmail/seed";
import { postJson } from "../helpers";
import { gError, gmailSandbox, gmailState, raw } from "./client";

const pushes: { url: string; body: string; contentType: string | null }[] = [];
let waiters: (() => void)[] = [];

/** Resolves once `count` pushes in all have arrived (an event, not a poll). */
function arrived(count: number): Promise<typeof pushes> {
  return new Promise((resolve) => {
    const check = () => (pushes.length >= count ? resolve(pushes) : waiters.push(check));
    check();
  });
}

beforeEach(() => {
  pushes.length = 0;
  // googleapis goes through SELF (client.ts); anything else fetched here is a push endpoint.
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input as RequestInfo, init);
    pushes.push({ url: req.url, body: await req.text(), contentType: req.headers.get("content-type") });
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
    return new Response(null, { status: 204 });
  });
});
afterEach(() => vi.unstubAllGlobals());

const TOPIC = "projects/northwind-mail/topics/gmail";
const SEED = {
  profile: { emailAddress: "agent@northwind.test", historyId: "500" },
  labels: [{ id: "Label_1", name: "Billing" }],
  messages: [
    { id: "a1", labelIds: ["INBOX", "UNREAD"], internalDate: "1767225600000", headers: [{ name: "From", value: "x@y.test" }], text: "hi" },
  ],
  pubsubSubscriptions: [
    {
      name: "projects/northwind-mail/subscriptions/gmail-push",
      topic: TOPIC,
      pushConfig: { pushEndpoint: "http://127.0.0.1:9/gmail-push" },
    },
    {
      name: "projects/northwind-mail/subscriptions/other",
      topic: "projects/northwind-mail/topics/other",
      pushConfig: { pushEndpoint: "http://127.0.0.1:9/other" },
    },
  ],
};

const envelopeOf = (body: string) => {
  const parsed = JSON.parse(body) as { message: { data: string; messageId: string; publishTime: string }; subscription: string };
  return { ...parsed, notification: JSON.parse(atob(parsed.message.data)) as { emailAddress: string; historyId: string } };
};

describe("watch pushes each change to the watched topic's subscriptions", () => {
  it("answers historyId and a 7-day expiration, then pushes Pub/Sub's envelope after a change", async () => {
    const { gmail, sandbox } = await gmailSandbox(SEED);
    const before = Date.now();
    const watch = await gmail.users.watch({ userId: "me", requestBody: { topicName: TOPIC } });
    expect(watch.data.historyId).toBe("500");
    expect(Number(watch.data.expiration)).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 60_000);
    expect((await gmailState(sandbox)).watch).toMatchObject({ topicName: TOPIC, historyId: "500" });

    await gmail.users.messages.modify({ userId: "me", id: "a1", requestBody: { removeLabelIds: ["UNREAD"] } });
    const [push] = await arrived(1);
    const profile = await gmail.users.getProfile({ userId: "me" });
    expect(push?.url).toBe("http://127.0.0.1:9/gmail-push");
    expect(push?.contentType).toContain("application/json");
    const envelope = envelopeOf(push?.body ?? "{}");
    expect(envelope.subscription).toBe("projects/northwind-mail/subscriptions/gmail-push");
    expect(envelope.notification).toEqual({ emailAddress: "agent@northwind.test", historyId: profile.data.historyId });
    expect(profile.data.historyId).toBe("501");
    expect(envelope.message.messageId).toMatch(/^\d+$/);
    expect(Number.isNaN(Date.parse(envelope.message.publishTime))).toBe(false);
    // A read changes nothing and owes no push; the other topic's subscription never hears of it.
    await gmail.users.messages.list({ userId: "me" });
    await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(["To: lee@partner.test", "Subject: S", "", "B"]) } });
    const after = await arrived(2);
    expect(after).toHaveLength(2);
    expect(after.every((p) => p.url === "http://127.0.0.1:9/gmail-push")).toBe(true);
  });

  it("pushes only changes to watched labels with labelIds, and nothing after stop", async () => {
    const { gmail } = await gmailSandbox(SEED);
    await gmail.users.watch({ userId: "me", requestBody: { topicName: TOPIC, labelIds: ["Label_1"], labelFilterBehavior: "include" } });
    await gmail.users.messages.modify({ userId: "me", id: "a1", requestBody: { addLabelIds: ["STARRED"] } });
    await gmail.users.messages.modify({ userId: "me", id: "a1", requestBody: { addLabelIds: ["Label_1"] } });
    const [push] = await arrived(1);
    expect(envelopeOf(push?.body ?? "{}").notification.historyId).toBe(String(502));
    expect((await gmail.users.stop({ userId: "me" })).status).toBe(204);
    await gmail.users.messages.modify({ userId: "me", id: "a1", requestBody: { removeLabelIds: ["Label_1"] } });
    await gmail.users.getProfile({ userId: "me" });
    expect(pushes).toHaveLength(1);
  });

  it("boots a seeded watch and its subscriptions, exports them as seeded, and pushes from them", async () => {
    const watch = { topicName: TOPIC, expiration: String(Date.now() + 86_400_000), historyId: "500" };
    const { gmail, sandbox } = await gmailSandbox({ ...SEED, watch });
    const state = await gmailState(sandbox);
    expect(state.watch).toEqual(watch);
    expect(state.pubsubSubscriptions).toEqual(SEED.pubsubSubscriptions);
    await gmail.users.messages.trash({ userId: "me", id: "a1" });
    expect(envelopeOf((await arrived(1))[0]?.body ?? "{}").notification.historyId).toBe("501");
  });

  it("refuses a topic name Gmail cannot read and an unknown label, with Google's 400", async () => {
    const { gmail } = await gmailSandbox(SEED);
    const bad = await gError(gmail.users.watch({ userId: "me", requestBody: { topicName: "gmail-topic" } }));
    expect(bad).toMatchObject({
      status: 400,
      error: { message: "Invalid topicName does not match projects/SOME-ANDROID-PROJECT/topics/*" },
    });
    expect((await gError(gmail.users.watch({ userId: "me", requestBody: { topicName: TOPIC, labelIds: ["Label_9"] } }))).status).toBe(400);
  });
});

describe("a seed's push endpoints pass the platform's egress policy, as the other twins' webhook URLs do", () => {
  /** Refused under every egress setting (durable-objects/egress.ts: refusedUnderEverySetting). */
  const REFUSED = [
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.7:4010/gmail-push",
    "http://192.168.1.20/gmail-push",
    "http://0x7f000001:4010/gmail-push",
    "http://[::ffff:127.0.0.1]:4010/gmail-push",
    "http://user:secret@127.0.0.1:4010/gmail-push",
  ];
  const withEndpoint = (pushEndpoint: string) => ({
    ...SEED,
    pubsubSubscriptions: [SEED.pubsubSubscriptions[1], { ...SEED.pubsubSubscriptions[0], pushConfig: { pushEndpoint } }],
  });

  it("refuses each at pubsubSubscriptions[i].pushConfig.pushEndpoint, naming the policy's reason", () => {
    for (const url of REFUSED) {
      const result = parseGmailSeed(withEndpoint(url));
      expect(result.ok, url).toBe(false);
      if (result.ok) continue;
      expect(
        result.issues.map((i) => i.path),
        url,
      ).toEqual(["pubsubSubscriptions[1].pushConfig.pushEndpoint"]);
      expect(result.issues[0]?.message, url).toMatch(/^pushEndpoint is not allowed: /);
    }
    // A loopback endpoint is allowed under the local setting (the deliveries above go to one).
    expect(parseGmailSeed(withEndpoint("http://127.0.0.1:9/gmail-push")).ok).toBe(true);
    expect(parseGmailSeed(withEndpoint("https://push.example.com/gmail")).ok).toBe(true);
  });

  it("is refused by the control plane's seed validation with the failing path, before any sandbox", async () => {
    const res = await postJson("/v1/seeds/validate", { twins: ["gmail"], seed: withEndpoint("http://169.254.169.254/x") });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { details: { twin: string; issues: { path: string; message: string }[] } } }>();
    expect(body.error.details.twin).toBe("gmail");
    expect(body.error.details.issues.map((i) => i.path)).toEqual(["pubsubSubscriptions[1].pushConfig.pushEndpoint"]);
    const sandbox = await postJson("/v1/sandboxes", { twins: ["gmail"], seed: withEndpoint("http://10.0.0.7:4010/x") });
    expect(sandbox.status).toBe(422);
  });
});
