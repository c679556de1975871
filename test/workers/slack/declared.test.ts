// Every Slack method declares its arguments once (durable-objects/twins/slack/declare.ts): the
// declaration reads them however @slack/web-api or a JSON client sends them, refuses a wrong one
// in Slack's own shape naming the field (and changes nothing), and gives the method its MCP tool
// and its /_pome/openapi.json entry.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { flag, int, json, list, objects, text } from "../../../durable-objects/twins/slack/declare";
import { slackRoutes } from "../../../durable-objects/twins/slack/routes";
import { slackTools } from "../../../durable-objects/twins/slack/tools";
import { twinFetch } from "../helpers";
import { slackSandbox, stateOf } from "./client";
import { ACME_SCOPES, acmeSeed } from "./fixtures";

const INSTALLATION = {
  app_id: "A0DEPLOY",
  bot_user_id: "U0BOT",
  scope: ACME_SCOPES,
  authed_user: { id: "U0ALICE", scope: "search:read" },
};

/** The Slack answer of a raw call to a method, as JSON, with the sandbox's bot token. */
async function call(
  sandbox: Awaited<ReturnType<typeof slackSandbox>>["sandbox"],
  name: string,
  body: { json?: unknown; form?: Record<string, string>; query?: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` };
  let payload: string | undefined;
  if (body.json !== undefined) {
    headers["content-type"] = "application/json; charset=utf-8";
    payload = JSON.stringify(body.json);
  } else if (body.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body.form).toString();
  }
  const url = `${sandbox.per_twin.slack.api_url}/api/${name}${body.query ? `?${body.query}` : ""}`;
  const res = await SELF.fetch(url, { method: payload === undefined ? "GET" : "POST", headers, body: payload });
  return { status: res.status, body: await res.json<Record<string, unknown>>() };
}

/** The refusal a WebClient call ends in: the whole Slack body the client carries as `data`. */
async function refusalOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call was expected to be refused").toBeInstanceOf(Error);
  return (err as { data: Record<string, unknown> }).data;
}

describe("a declared method refuses a wrong argument in Slack's shape, naming it, and changes nothing", () => {
  it("refuses a boolean that is not one, through WebClient, at HTTP 200", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const before = await stateOf(sandbox);
    const refused = await refusalOf(
      web.chat.postMessage({ channel: "C0GENERAL", text: "x", thread_ts: "1700000000.000100", reply_broadcast: "maybe" as never }),
    );
    expect(refused).toMatchObject({
      ok: false,
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] reply_broadcast must be a boolean"] },
    });
    expect(await stateOf(sandbox)).toEqual(before);
  });

  it("refuses a number that is not one, naming the field", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const refused = await refusalOf(web.conversations.history({ channel: "C0GENERAL", limit: "ten" as never }));
    expect(refused).toMatchObject({
      ok: false,
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] limit must be a number"] },
    });
  });

  it("answers a missing required argument with the method's own code, or Slack's missing-field sentence", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const posted = await web.chat.postMessage({ channel: "C0GENERAL", text: "react to me" });
    expect(await refusalOf(web.reactions.add({ channel: "C0GENERAL", timestamp: posted.ts ?? "" } as never))).toMatchObject({
      error: "invalid_name",
    });
    expect(await refusalOf(web.chat.postMessage({ text: "nowhere" } as never))).toMatchObject({ error: "channel_not_found" });
    // usergroups.create without a name: invalid_arguments with Slack's `missing required field` sentence.
    const { sandbox: groups } = await slackSandbox(
      acmeSeed({ installation: { ...INSTALLATION, scope: `${ACME_SCOPES},usergroups:write` } }),
    );
    const unnamed = await call(groups, "usergroups.create", { form: { handle: "x" } });
    expect(unnamed).toEqual({
      status: 200,
      body: { ok: false, error: "invalid_arguments", response_metadata: { messages: ["[ERROR] missing required field: name"] } },
    });
  });

  it("refuses JSON that is not JSON in a JSON-valued form field, and a JSON body that is not an object", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const notJson = await call(sandbox, "chat.postMessage", { form: { channel: "C0GENERAL", blocks: "[{" } });
    expect(notJson).toEqual({
      status: 200,
      body: { ok: false, error: "invalid_arguments", response_metadata: { messages: ["[ERROR] blocks must be JSON"] } },
    });
    const notObject = await call(sandbox, "chat.postMessage", { json: ["C0GENERAL"] });
    expect(notObject.body).toEqual({ ok: false, error: "json_not_object" });
  });

  it("checks the token's scopes before it reads the arguments, as Slack does", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    // The acme bot lacks usergroups:write: the scope refusal wins over the missing name.
    const res = await call(sandbox, "usergroups.create", { form: {} });
    expect(res.body).toMatchObject({ ok: false, error: "missing_scope", needed: "usergroups:write" });
  });
});

describe("a declared method reads its arguments however Slack's clients send them", () => {
  it("takes blocks as a JSON array in a JSON body and as JSON text in a form", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }];
    const asJson = await call(sandbox, "chat.postMessage", { json: { channel: "C0GENERAL", text: "a", blocks } });
    const asForm = await call(sandbox, "chat.postMessage", { form: { channel: "C0GENERAL", text: "b", blocks: JSON.stringify(blocks) } });
    expect(asJson.body).toMatchObject({ ok: true, message: { blocks } });
    expect(asForm.body).toMatchObject({ ok: true, message: { blocks } });
  });

  it("takes booleans as true/false and 1/0, numbers as their text, and lists as commas or arrays", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const withCount = await call(sandbox, "conversations.info", { query: "channel=C0GENERAL&include_num_members=1" });
    expect(withCount.body).toMatchObject({ ok: true, channel: { id: "C0GENERAL", num_members: 3 } });
    const withoutCount = await call(sandbox, "conversations.info", { query: "channel=C0GENERAL&include_num_members=0" });
    expect(withoutCount.body.channel).not.toHaveProperty("num_members");
    const page = await call(sandbox, "users.list", { form: { limit: "2" } });
    expect((page.body.members as unknown[]).length).toBe(2);
    const commas = await call(sandbox, "conversations.list", { form: { types: "public_channel,im" } });
    const array = await call(sandbox, "conversations.list", { json: { types: ["public_channel", "im"] } });
    expect(commas.body.ok).toBe(true);
    expect(array.body.channels).toEqual(commas.body.channels);
  });

  it("takes python-slack-sdk's JSON body (application/json;charset=utf-8, no space) and a form carrying the token", async () => {
    // python-slack-sdk posts chat.postMessage as JSON with this exact content type and a bearer
    // header (slack_sdk/web/internal_utils.py, `_get_headers`); older clients put `token` in the form.
    const { sandbox } = await slackSandbox(acmeSeed());
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*py*" } }];
    const url = `${sandbox.per_twin.slack.api_url}/api/chat.postMessage`;
    const token = sandbox.provider_credentials.slack.token;
    const py = await SELF.fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json;charset=utf-8" },
      body: JSON.stringify({ channel: "C0GENERAL", text: "py", blocks, unfurl_links: false }),
    });
    expect(await py.json()).toMatchObject({ ok: true, message: { text: "py", blocks } });
    const legacy = await SELF.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
      body: new URLSearchParams({ token, channel: "C0GENERAL", text: "old", blocks: JSON.stringify(blocks), as_user: "true" }).toString(),
    });
    expect(await legacy.json()).toMatchObject({ ok: true, message: { text: "old", blocks } });
  });

  it("reads an empty argument as not given, as Slack does", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const posted = await call(sandbox, "chat.postMessage", { form: { channel: "C0GENERAL", text: "top", thread_ts: "" } });
    expect(posted.body).toMatchObject({ ok: true });
    expect(posted.body.message).not.toHaveProperty("thread_ts");
  });
});

describe("/_pome/openapi.json lists each method's arguments from its declaration", () => {
  it("gives chat.postMessage and conversations.history their arguments as a form body, described and required as declared", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const doc = await (await twinFetch(sandbox, "/_pome/openapi.json", {}, "slack")).json<{
      paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    }>();
    const post = doc.paths["/api/chat.postMessage"].post;
    expect(post.operationId).toBe("chat.postMessage");
    const schema = post.requestBody?.content["application/x-www-form-urlencoded"]?.schema as {
      properties: Record<string, { description?: string }>;
      required?: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["channel", "text", "blocks", "attachments", "thread_ts", "reply_broadcast"]),
    );
    expect(schema.required).toEqual(["channel"]);
    expect(schema.properties.text.description).toBe("Message text (Slack mrkdwn)");
    const history = doc.paths["/api/conversations.history"].get.requestBody?.content["application/x-www-form-urlencoded"]?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(history.properties)).toEqual(
      expect.arrayContaining(["channel", "limit", "cursor", "oldest", "latest", "inclusive"]),
    );
    const upload = doc.paths["/upload/v1/{file_id}"].post as unknown as { parameters: { name: string; in: string }[] };
    expect(upload.parameters).toEqual([expect.objectContaining({ name: "file_id", in: "path" })]);
  });
});

describe("every Slack route carries its declaration, and the MCP tools come from them", () => {
  /** Routes that cannot carry a declaration, each with its reason. None today. */
  const UNDECLARED: Record<string, string> = {};

  it("declares every route", () => {
    const missing = slackRoutes.filter((r) => !r.declaration && !UNDECLARED[`${r.method} ${r.pattern}`]);
    expect(missing.map((r) => `${r.method} ${r.pattern}`)).toEqual([]);
  });

  it("derives one tool per method from the declarations; only the two upload/download fronts are written by hand", () => {
    const declared = slackRoutes.flatMap((r) => (r.declaration?.tool ? [r.declaration.tool.name] : []));
    const methods = new Set(slackRoutes.filter((r) => r.pattern.startsWith("/api/")).map((r) => r.operation));
    expect(declared.length).toBe(methods.size);
    expect(slackTools.map((t) => t.name)).toEqual([...declared, "files_upload_content", "files_download"]);
  });

  it("keeps each tool's arguments and the JSON POST it makes", () => {
    const post = slackTools.find((t) => t.name === "chat_postMessage");
    expect(Object.keys(post?.input.shape ?? {}).sort()).toEqual([
      "attachments",
      "blocks",
      "channel",
      "link_names",
      "parse",
      "reply_broadcast",
      "text",
      "thread_ts",
    ]);
    expect(post?.input.safeParse({ text: "no channel" }).success).toBe(false);
    expect(post?.toRequest({ channel: "C0GENERAL", text: "hi", reply_broadcast: false })).toEqual({
      method: "POST",
      path: "/api/chat.postMessage",
      query: {},
      body: { channel: "C0GENERAL", text: "hi", reply_broadcast: false },
    });
    const history = slackTools.find((t) => t.name === "conversations_history");
    expect(history?.readOnly).toBe(true);
    expect(slackTools.find((t) => t.name === "chat_delete")?.destructive).toBe(true);
    // A misspelt argument is refused, never dropped.
    expect(history?.input.safeParse({ channel: "C0GENERAL", limitt: 5 }).success).toBe(false);
  });
});

describe("Slack's argument types, as the declarations read them (no HTTP)", () => {
  it("reads booleans as Slack does: true/false, 1/0, as text or as themselves", () => {
    const schema = flag();
    expect(["true", "1", 1, true].map((v) => schema.parse(v))).toEqual([true, true, true, true]);
    expect(["false", "0", 0, false].map((v) => schema.parse(v))).toEqual([false, false, false, false]);
    expect(schema.safeParse("yes").success).toBe(false);
  });

  it("reads numbers from their text and cuts fractions; text from numbers too", () => {
    expect(int().parse("20.5")).toBe(20);
    expect(int().parse(7)).toBe(7);
    expect(int().safeParse("ten").success).toBe(false);
    expect(int().safeParse("9".repeat(400)).success).toBe(false);
    expect(text().parse(1700000000.5)).toBe("1700000000.5");
    expect(text().safeParse({ $gt: "" }).success).toBe(false);
  });

  it("reads a list as commas, a JSON array or its text; a JSON field as itself or its text", () => {
    expect(list().parse("a, b,,c")).toEqual(["a", "b", "c"]);
    expect(list().parse(["a", "b"])).toEqual(["a", "b"]);
    expect(list().parse('["a","b"]')).toEqual(["a", "b"]);
    expect(json(objects).parse('[{"type":"divider"}]')).toEqual([{ type: "divider" }]);
    expect(json(objects).parse([{ type: "divider" }])).toEqual([{ type: "divider" }]);
    expect(json(objects).safeParse("[{").success).toBe(false);
  });
});
