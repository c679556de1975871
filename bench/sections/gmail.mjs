// The Gmail twin's figures: point read (GET message), point write (modify labels) and an inbox
// page against a bare Node round trip, and the same calls in a mailbox of `bigWorld` messages
// against one of 10, interleaved in one shuffled loop so machine drift hits every series alike.
import { request } from "../lib/http.mjs";
import { PAGE, measureTwin, twinSandbox, twinSpecs } from "../lib/twin-section.mjs";

const FIRST = 0x19a0000000000000n;
const idOf = (n) => (FIRST + BigInt(n)).toString(16).padStart(16, "0");

/** A mailbox of `count` inbox mails (the shape the twin's own generateSeed makes). */
function mailbox(count) {
  return {
    profile: { emailAddress: "bench@northwind.test" },
    labels: [{ id: "Label_1", name: "Bench" }],
    messages: Array.from({ length: count }, (_, i) => ({
      id: idOf(i + 1),
      labelIds: i % 3 === 0 ? ["INBOX", "UNREAD"] : ["INBOX"],
      internalDate: String(Date.UTC(2026, 0, 5) + i * 60_000),
      headers: [
        { name: "From", value: `sender${i % 7}@bench.test` },
        { name: "To", value: "bench@northwind.test" },
        { name: "Subject", value: `Message ${i + 1}` },
      ],
      text: `Body of message ${i + 1}.`,
    })),
  };
}

/** A Gmail sandbox on `seed` with the section's three calls. */
async function create(baseUrl, seed) {
  const sandbox = await twinSandbox(baseUrl, "gmail", seed);
  const api = `${sandbox.body.per_twin.gmail.api_url}/gmail/v1/users/me`;
  const headers = { authorization: `Bearer ${sandbox.body.agent_token}` };
  let star = false;
  let signed = false;
  return {
    ...sandbox,
    // Settings, an area of round 3: the primary send-as identity, read and given a new signature
    // (sanitized as Gmail does before it is saved).
    sendAs: () => request(`${api}/settings/sendAs/bench%40northwind.test`, { headers }),
    signature: () => {
      signed = !signed;
      return request(`${api}/settings/sendAs/bench%40northwind.test`, {
        method: "PATCH",
        headers,
        body: { signature: signed ? '<div>-- <b>Bench</b> <a href="https://bench.test">help</a></div>' : "-- Bench" },
      });
    },
    read: (n) => request(`${api}/messages/${idOf(n)}`, { headers }),
    write: (n) => {
      star = !star;
      return request(`${api}/messages/${idOf(n)}/modify`, {
        method: "POST",
        headers,
        body: star ? { addLabelIds: ["STARRED"] } : { removeLabelIds: ["STARRED"] },
      });
    },
    list: () => request(`${api}/messages?maxResults=${PAGE}&labelIds=INBOX`, { headers }),
  };
}

/** Point calls in the settings area, judged like the twin's own read and write. */
const AREAS = [
  { key: "send-as", kind: "read", name: "GET send-as identity", label: "users.settings.sendAs.get", call: (s) => s.sendAs() },
  { key: "signature", kind: "write", name: "PATCH send-as signature", label: "users.settings.sendAs.patch", call: (s) => s.signature() },
];

export const measureGmail = (ctx) =>
  measureTwin(ctx, {
    name: "gmail",
    areas: AREAS,
    specs: twinSpecs({
      twin: "gmail",
      display: "Gmail",
      big: ctx.sizes.bigWorld,
      read: "GET message",
      write: "modify labels",
      list: "inbox page",
      objects: "messages",
      world: "message mailbox",
      areas: AREAS,
    }),
    create: (count) => create(ctx.platform.baseUrl, mailbox(count)),
    pick: (random, max) => 1 + Math.floor(random() * max),
    labels: { read: "messages.get", write: "messages.modify", list: "messages.list" },
  });
