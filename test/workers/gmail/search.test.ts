// Gmail's search language as Google's "Search operators you can use with Gmail" page lists it
// (https://support.google.com/mail/answer/7190): the reader as plain functions, the results
// through googleapis.
import { describe, expect, it } from "vitest";
import { compileQuery, searchDoc, sizeBytes, tokenize } from "../../../durable-objects/twins/gmail/store/search";
import type { StoredMessage } from "../../../durable-objects/twins/gmail/store/messages";
import { gmailSandbox } from "./client";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 6, 1);
const from = (value: string) => [{ name: "From", value }];
const big = btoa("x".repeat(30_000));

const SEED = {
  profile: { emailAddress: "agent@northwind.test" },
  labels: [{ id: "Label_1", name: "Client Work" }],
  messages: [
    {
      id: "a1",
      labelIds: ["INBOX", "CATEGORY_PERSONAL", "STARRED"],
      internalDate: String(NOW - 2 * DAY),
      headers: [
        ...from("dana@customer.test"),
        { name: "Subject", value: "Dinner friday" },
        { name: "Delivered-To", value: "sales@northwind.test" },
      ],
      text: "See the plan https://docs.google.com/document/d/abc/edit before dinner.",
    },
    {
      id: "a2",
      labelIds: ["INBOX", "CATEGORY_SOCIAL"],
      internalDate: String(NOW - 40 * DAY),
      headers: [...from("alex@social.test"), { name: "Subject", value: "Movie night" }],
      text: "Trailer: https://www.youtube.com/watch?v=xyz",
    },
    {
      id: "a3",
      labelIds: ["INBOX", "CATEGORY_PROMOTIONS", "Label_1"],
      internalDate: String(NOW - 400 * DAY),
      headers: [...from("deals@shop.test"), { name: "Subject", value: "Sale" }, { name: "List-Id", value: "Deals <deals.shop.test>" }],
      text: "Half price",
      attachments: [{ filename: "catalogue.pdf", mimeType: "application/pdf", data: big }],
    },
    {
      id: "a4",
      labelIds: ["INBOX", "CATEGORY_UPDATES"],
      internalDate: String(Date.UTC(2026, 0, 15)),
      headers: [...from("billing@vendor.test"), { name: "Subject", value: "Budget sheet" }],
      text: "https://docs.google.com/spreadsheets/d/xyz and https://docs.google.com/presentation/d/q",
    },
    {
      id: "a5",
      labelIds: ["TRASH"],
      internalDate: String(NOW - 3 * DAY),
      headers: [...from("dana@customer.test"), { name: "Subject", value: "Old dinner" }],
      text: "dinner",
    },
  ],
};

describe("the reader cuts Gmail's brackets and reads every operator's value", () => {
  it("cuts `{…}` and `(…)` groups, negated or an operator's value", () => {
    expect(tokenize("{a b} -{c d} from:{x y} -(e)")).toEqual([
      "{",
      "a",
      "b",
      "}",
      "-",
      "{",
      "c",
      "d",
      "}",
      "from:{x y}",
      "-",
      "(",
      "e",
      ")",
    ]);
  });

  it("reads sizes with K and M as binary units, and refuses nothing it cannot size", () => {
    expect(sizeBytes("10")).toBe(10);
    expect(sizeBytes("5K")).toBe(5 * 1024);
    expect(sizeBytes("10M")).toBe(10 * 1024 * 1024);
    expect(sizeBytes("2mb")).toBe(2 * 1024 * 1024);
    expect(sizeBytes("big")).toBeUndefined();
    expect(compileQuery("larger:big", 0)).toMatchObject({ ok: true });
  });

  it("evaluates groups: braces any of, parentheses all of, negation on either", () => {
    const message = (id: string, labelIds: string[], subject: string): StoredMessage => ({
      id,
      threadId: id,
      internalDate: NOW,
      historyId: 1,
      labelIds,
      form: "structured",
      headers: [{ name: "Subject", value: subject }],
      content: { headers: [{ name: "Subject", value: subject }], attachments: [] },
      raw: null,
      snippet: "",
      sizeEstimate: 2000,
      isDraft: false,
    });
    const docs = [message("m1", ["INBOX"], "alpha beta"), message("m2", ["STARRED"], "beta gamma"), message("m3", [], "delta")].map((m) =>
      searchDoc(m, new Map()),
    );
    const hits = (q: string) => {
      const compiled = compileQuery(q, NOW);
      if (!compiled.ok) throw new Error(compiled.reason);
      return docs.filter((d) => compiled.query.matches(d)).map((d) => d.message.id);
    };
    expect(hits("{alpha delta}")).toEqual(["m1", "m3"]);
    expect(hits("(beta gamma)")).toEqual(["m2"]);
    expect(hits("-{alpha delta}")).toEqual(["m2"]);
    expect(hits("-(beta gamma)")).toEqual(["m1", "m3"]);
    expect(hits("subject:{alpha gamma} -is:starred")).toEqual(["m1"]);
    expect(hits("beta AND gamma")).toEqual(["m2"]);
    expect(hits("{in:inbox is:starred} beta")).toEqual(["m1", "m2"]);
    expect(hits("larger:1K smaller:2K")).toEqual(["m1", "m2", "m3"]);
    expect(hits("larger:2K")).toEqual([]);
    expect(hits("size:1999")).toEqual(["m1", "m2", "m3"]);
    expect(hits("{}")).toEqual(["m1", "m2", "m3"]);
  });
});

describe("search results through googleapis follow Gmail's operators", () => {
  const ids = async (gmail: Awaited<ReturnType<typeof gmailSandbox>>["gmail"], q: string) =>
    ((await gmail.users.messages.list({ userId: "me", q })).data.messages ?? []).map((m) => m.id).sort();

  it("maps each category to the tab's CATEGORY_* label, primary to CATEGORY_PERSONAL", async () => {
    const { gmail } = await gmailSandbox(SEED);
    expect(await ids(gmail, "category:primary")).toEqual(["a1"]);
    expect(await ids(gmail, "category:social")).toEqual(["a2"]);
    expect(await ids(gmail, "category:promotions")).toEqual(["a3"]);
    expect(await ids(gmail, "category:updates")).toEqual(["a4"]);
    expect(await ids(gmail, "category:forums")).toEqual([]);
    expect(await ids(gmail, "category:purchases")).toEqual([]);
    expect(await ids(gmail, "-category:primary")).toEqual(["a2", "a3", "a4"]);
  });

  it("finds mail by size with larger:, smaller: and size:", async () => {
    const { gmail } = await gmailSandbox(SEED);
    expect(await ids(gmail, "larger:20K")).toEqual(["a3"]);
    expect(await ids(gmail, "smaller:20K")).toEqual(["a1", "a2", "a4"]);
    expect(await ids(gmail, "size:20000")).toEqual(["a3"]);
    expect(await ids(gmail, "larger:1M")).toEqual([]);
  });

  it("groups with braces and parentheses, with OR and negation on groups", async () => {
    const { gmail } = await gmailSandbox(SEED);
    expect(await ids(gmail, "{from:dana@customer.test from:alex@social.test}")).toEqual(["a1", "a2"]);
    expect(await ids(gmail, "from:{dana alex}")).toEqual(["a1", "a2"]);
    expect(await ids(gmail, "-{category:social category:promotions}")).toEqual(["a1", "a4"]);
    expect(await ids(gmail, "(dinner friday) OR subject:sale")).toEqual(["a1", "a3"]);
    expect(await ids(gmail, "-(dinner OR movie) in:inbox")).toEqual(["a3", "a4"]);
  });

  it("reads has: for attachments, Drive links, YouTube, labels and the yellow star", async () => {
    const { gmail } = await gmailSandbox(SEED);
    expect(await ids(gmail, "has:attachment")).toEqual(["a3"]);
    expect(await ids(gmail, "has:drive")).toEqual(["a1", "a4"]);
    expect(await ids(gmail, "has:document")).toEqual(["a1"]);
    expect(await ids(gmail, "has:spreadsheet")).toEqual(["a4"]);
    expect(await ids(gmail, "has:presentation")).toEqual(["a4"]);
    expect(await ids(gmail, "has:youtube")).toEqual(["a2"]);
    expect(await ids(gmail, "has:userlabels")).toEqual(["a3"]);
    expect(await ids(gmail, "has:nouserlabels")).toEqual(["a1", "a2", "a4"]);
    expect(await ids(gmail, "has:yellow-star")).toEqual(["a1"]);
    expect(await ids(gmail, "has:red-bang")).toEqual([]);
  });

  it("reads filename:, list:, deliveredto:, label: and in: a label's name", async () => {
    const { gmail } = await gmailSandbox(SEED);
    expect(await ids(gmail, "filename:pdf")).toEqual(["a3"]);
    expect(await ids(gmail, "filename:catalogue.pdf")).toEqual(["a3"]);
    expect(await ids(gmail, "list:deals.shop.test")).toEqual(["a3"]);
    expect(await ids(gmail, "deliveredto:sales@northwind.test")).toEqual(["a1"]);
    expect(await ids(gmail, "label:client-work")).toEqual(["a3"]);
    expect(await ids(gmail, 'label:"Client Work"')).toEqual(["a3"]);
    expect(await ids(gmail, "in:client-work")).toEqual(["a3"]);
  });

  it("reads me in from:, to: and deliveredto: as the mailbox's own address", async () => {
    const { gmail } = await gmailSandbox();
    const headerOf = async (id: string, name: string) =>
      (await gmail.users.messages.get({ userId: "me", id, format: "metadata", metadataHeaders: [name] })).data.payload?.headers?.[0]
        ?.value ?? "";
    const fromMe = await ids(gmail, "from:me");
    expect(fromMe.length).toBeGreaterThan(0);
    for (const id of fromMe) expect(await headerOf(id ?? "", "From")).toContain("agent@northwind.test");
    const toMe = await ids(gmail, "to:me");
    expect(toMe.length).toBeGreaterThan(0);
    for (const id of toMe) expect(await headerOf(id ?? "", "To")).toContain("agent@northwind.test");
    expect(await ids(gmail, "deliveredto:me")).toEqual(toMe);
    expect((await ids(gmail, "-from:me")).filter((id) => fromMe.includes(id))).toEqual([]);
    // `me` inside an operator's group names the mailbox too.
    expect(await ids(gmail, "from:(me OR nobody)")).toEqual(fromMe);
  });

  it("reads absolute and relative dates, and in:anywhere reaches the trash", async () => {
    const { gmail } = await gmailSandbox(SEED);
    expect(await ids(gmail, "after:2026/01/14 before:2026/01/16")).toEqual(["a4"]);
    expect(await ids(gmail, "after:01/14/2026 before:01/16/2026")).toEqual(["a4"]);
    expect(await ids(gmail, `newer:2026/01/14 older:${Math.floor(Date.UTC(2026, 0, 16) / 1000)}`)).toEqual(["a4"]);
    expect(await ids(gmail, "dinner")).toEqual(["a1"]);
    expect(await ids(gmail, "dinner in:anywhere")).toEqual(["a1", "a5"]);
    expect(await ids(gmail, "in:trash")).toEqual(["a5"]);
  });

  it("reads older_than: and newer_than: in days, months and years against the clock", async () => {
    const now = Date.now();
    const dated = (id: string, ago: number) => ({
      id,
      labelIds: ["INBOX"],
      internalDate: String(now - ago),
      headers: from("x@y.test"),
      text: id,
    });
    const { gmail } = await gmailSandbox({
      profile: { emailAddress: "agent@northwind.test" },
      messages: [dated("b1", 2 * DAY), dated("b2", 45 * DAY), dated("b3", 400 * DAY)],
    });
    expect(await ids(gmail, "newer_than:3d")).toEqual(["b1"]);
    expect(await ids(gmail, "older_than:1m")).toEqual(["b2", "b3"]);
    expect(await ids(gmail, "older_than:1y")).toEqual(["b3"]);
    expect(await ids(gmail, "newer_than:2m older_than:1d")).toEqual(["b1", "b2"]);
  });
});
