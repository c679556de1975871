// Every Gmail route declares its inputs once (durable-objects/twins/gmail/declare.ts, issue 37
// point 3): the declaration refuses a wrong-typed field in Google's error body naming the field,
// `/_pome/openapi.json` lists each route's parameters and body from it, and the twin's MCP tools
// are derived from it, making the same REST calls googleapis makes.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gmailRoutes } from "../../../durable-objects/twins/gmail/routes";
import { gmailTools } from "../../../durable-objects/twins/gmail/tools";
import { type CreatedSandbox, twinFetch } from "../helpers";
import { gError, gmailSandbox, gmailState } from "./client";

const MESSAGE = "19a0c0de0000a001";

/** Google's 400 for a value its request parser does not take, as gaxios reads it. */
const invalid = (message: string, reason: string) => ({
  code: 400,
  message,
  errors: [{ message, domain: "global", reason }],
  status: "INVALID_ARGUMENT",
});

describe("a declared Gmail route refuses a wrong-typed field in Google's error body, naming the field", () => {
  it("names a body field that is not the declared type, quoting the value, and changes nothing", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const before = await gmailState(sandbox);
    const visibility = await gError(
      gmail.users.labels.create({ userId: "me", requestBody: { name: "Escalations", labelListVisibility: "sometimes" } }),
    );
    expect(visibility).toEqual({ status: 400, error: invalid(`Invalid value at 'labelListVisibility', "sometimes"`, "invalid") });
    // A list with one item of the wrong type is quoted whole, as Gmail's readers quote it.
    const labels = await gError(
      gmail.users.messages.modify({ userId: "me", id: MESSAGE, requestBody: { addLabelIds: ["STARRED", 7 as unknown as string] } }),
    );
    expect(labels).toEqual({ status: 400, error: invalid(`Invalid value at 'addLabelIds', ["STARRED",7]`, "invalid") });
    expect(await gmailState(sandbox)).toEqual(before);
  });

  it("names a query value by its proto field, and keeps Gmail's leniency where the twin had it", async () => {
    const { gmail } = await gmailSandbox();
    const format = await gError(gmail.users.messages.get({ userId: "me", id: MESSAGE, format: "bogus" }));
    expect(format).toEqual({
      status: 400,
      error: invalid(`Invalid value at 'format' (type.googleapis.com/google.apps.gmail.v1.Format), "bogus"`, "invalidArgument"),
    });
    const size = await gError(gmail.users.messages.list({ userId: "me", maxResults: "ten" as unknown as number }));
    expect(size).toEqual({ status: 400, error: invalid(`Invalid value at 'max_results' (TYPE_UINT32), "ten"`, "invalidArgument") });
    const history = await gError(gmail.users.history.list({ userId: "me" }));
    expect(history).toEqual({ status: 400, error: invalid("Missing required field: startHistoryId", "invalidArgument") });
    // The format reads case-insensitively, and a page size past 500 is served as 500.
    expect((await gmail.users.messages.get({ userId: "me", id: MESSAGE, format: "METADATA" })).data.id).toBe(MESSAGE);
    expect((await gmail.users.messages.list({ userId: "me", maxResults: 100_000 })).status).toBe(200);
  });

  it("keeps a method's own wording where Gmail has one (a send that names no draft)", async () => {
    const { gmail } = await gmailSandbox();
    const { status, error } = await gError(gmail.users.drafts.send({ userId: "me", requestBody: {} }));
    expect(status).toBe(400);
    expect(error.message).toBe("Invalid draft: id is required");
  });
});

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: { type?: string; enum?: string[]; items?: { type?: string } };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, Record<string, unknown>>; required?: string[] } }> };
}

async function openapi(sandbox: CreatedSandbox): Promise<Record<string, Record<string, Operation>>> {
  const doc = await (await twinFetch(sandbox, "/_pome/openapi.json", {}, "gmail")).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  return doc.paths;
}

describe("/_pome/openapi.json lists each Gmail route's parameters and body from its declaration", () => {
  it("lists messages.list's mailbox and query, messages.get's format values, and label bodies", async () => {
    const { sandbox } = await gmailSandbox();
    const paths = await openapi(sandbox);
    const list = paths["/gmail/v1/users/{userId}/messages"]?.get;
    expect(list?.operationId).toBe("gmail.users.messages.list");
    const byName = new Map((list?.parameters ?? []).map((p) => [p.name, p]));
    expect(byName.get("userId")).toMatchObject({ in: "path", required: true });
    expect(byName.get("q")).toMatchObject({ in: "query", required: false, schema: { type: "string" } });
    expect(byName.get("labelIds")).toMatchObject({ in: "query", schema: { type: "array", items: { type: "string" } } });
    expect(byName.get("maxResults")).toMatchObject({ in: "query", schema: { type: "integer" } });
    const get = paths["/gmail/v1/users/{userId}/messages/{id}"]?.get;
    expect(get?.parameters?.find((p) => p.name === "format")?.schema.enum).toEqual(["full", "metadata", "minimal", "raw"]);

    const modify = paths["/gmail/v1/users/{userId}/messages/{id}/modify"]?.post;
    const modifyBody = modify?.requestBody?.content["application/json"]?.schema;
    expect(Object.keys(modifyBody?.properties ?? {}).sort()).toEqual(["addLabelIds", "removeLabelIds"]);
    const create = paths["/gmail/v1/users/{userId}/labels"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(create?.required).toEqual(["name"]);
    expect(create?.properties?.labelListVisibility).toMatchObject({ enum: ["labelShow", "labelShowIfUnread", "labelHide"] });
  });

  it("lists an upload form's query and leaves its multipart body to the method (no JSON body declared)", async () => {
    const { sandbox } = await gmailSandbox();
    const upload = (await openapi(sandbox))["/upload/gmail/v1/users/{userId}/messages/send"]?.post;
    expect(upload?.parameters?.map((p) => p.name)).toEqual(["userId", "uploadType"]);
    expect(upload?.requestBody).toBeUndefined();
  });
});

/**
 * Routes without a declaration, each with the reason. Every Gmail route is declared today; an
 * entry here would name a route whose inputs cannot be said in zod.
 */
const UNDECLARED: Readonly<Record<string, string>> = {};

describe("every Gmail route carries a declaration, and the twin's tools are derived from them", () => {
  it("declares every route", () => {
    const missing = gmailRoutes.filter((r) => !r.declaration && !UNDECLARED[`${r.method} ${r.pattern}`]);
    expect(missing.map((r) => `${r.method} ${r.pattern}`)).toEqual([]);
  });

  it("serves the same tool names as before the derivation, each once", () => {
    const names = gmailTools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(
      [
        "get_profile",
        "list_messages",
        "get_message",
        "send_message",
        "modify_message",
        "trash_message",
        "list_threads",
        "get_thread",
        "list_labels",
        "create_label",
        "list_drafts",
        "create_draft",
        "send_draft",
        "untrash_message",
        "batch_modify_messages",
        "modify_thread",
        "trash_thread",
        "untrash_thread",
        "get_label",
        "update_label",
        "delete_label",
        "get_draft",
        "update_draft",
        "delete_draft",
        "list_send_as",
        "list_filters",
        "create_filter",
        "delete_filter",
        "get_vacation",
        "update_vacation",
        "update_send_as",
        "create_send_as",
        "list_forwarding_addresses",
        "create_forwarding_address",
        "get_auto_forwarding",
        "update_auto_forwarding",
        "list_delegates",
      ].sort(),
    );
  });

  it("makes the REST call of its route, in the mailbox `me`", () => {
    const byName = new Map(gmailTools.map((t) => [t.name, t]));
    expect(byName.get("modify_message")?.toRequest({ id: MESSAGE, removeLabelIds: ["INBOX"] })).toEqual({
      method: "POST",
      path: `/gmail/v1/users/me/messages/${MESSAGE}/modify`,
      query: {},
      body: { removeLabelIds: ["INBOX"] },
    });
    expect(byName.get("get_message")?.toRequest({ id: MESSAGE, format: "metadata" })).toMatchObject({
      method: "GET",
      path: `/gmail/v1/users/me/messages/${MESSAGE}`,
      query: { format: "metadata" },
    });
    expect(byName.get("update_send_as")?.toRequest({ sendAsEmail: "agent@northwind.test", signature: "Thanks" })).toMatchObject({
      method: "PATCH",
      path: "/gmail/v1/users/me/settings/sendAs/agent%40northwind.test",
      body: { signature: "Thanks" },
    });
    expect(byName.get("trash_message")?.destructive).toBe(true);
    expect(byName.get("list_messages")?.readOnly).toBe(true);
  });

  it("lists by every label a derived tool is given, as the REST list does", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const rest = await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX", "UNREAD"] });
    const viaTool = await callTool(sandbox, "list_messages", { labelIds: ["INBOX", "UNREAD"] });
    expect(viaTool).toEqual(rest.data);
    const inboxOnly = await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX"] });
    expect((rest.data.messages ?? []).length).toBeGreaterThan(0);
    expect((rest.data.messages ?? []).length).toBeLessThan((inboxOnly.data.messages ?? []).length);
  });
});

/** One tools/call on the twin's MCP server; the tool's JSON result. */
async function callTool(sandbox: CreatedSandbox, name: string, args: Record<string, unknown>): Promise<unknown> {
  const res = await SELF.fetch(sandbox.per_twin.gmail?.mcp_url ?? "", {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      authorization: `Bearer ${sandbox.agent_token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await res.text();
  // The stateless server answers as JSON or as one server-sent event, by what the client accepts.
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6) ?? "");
  const reply = JSON.parse(json) as { result: { content: { text: string }[]; isError?: boolean } };
  expect(reply.result.isError ?? false).toBe(false);
  return JSON.parse(reply.result.content[0]?.text ?? "null") as unknown;
}
