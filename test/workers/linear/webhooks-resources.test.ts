// Webhooks for every resource type the twin writes, through @linear/sdk: each change of a project,
// project update, document, label, cycle, reaction, attachment and comment thread is POSTed in
// Linear's envelope, signed with Linear-Signature, only to the endpoints whose resourceTypes name it.
import { LinearDocument } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, deliveries, delivered, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

const EVERYTHING = "http://127.0.0.1:9/everything";
const DOCS_ONLY = "http://127.0.0.1:9/docs-only";
const SECRET = "lin_wh_every_resource";

interface Envelope {
  action: string;
  type: string;
  data: Record<string, unknown>;
  updatedFrom?: Record<string, unknown>;
  url: string;
  createdAt: string;
  webhookTimestamp: number;
}

async function hmacHex(secret: string, body: string) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

const hookedWorld = () =>
  acmeWorld({
    webhooks: [
      {
        url: EVERYTHING,
        resourceTypes: ["Project", "ProjectUpdate", "Document", "IssueLabel", "Cycle", "Reaction", "Attachment", "Comment"],
        secret: SECRET,
      },
      { url: DOCS_ONLY, resourceTypes: ["Document"], secret: "lin_wh_docs" },
    ],
  });

describe("linear twin: webhooks for every resource the twin writes", () => {
  it("delivers each resource's create and update in Linear's envelope, signed, filtered by resourceTypes", async () => {
    const client = linearFor(await linearSandbox(hookedWorld()));
    const start = delivered.length;
    const team = (await client.teams()).nodes[0];
    const project = await (await client.createProject({ name: "Hooks", teamIds: [team.id] })).project;
    if (!project) throw new Error("no project");
    await client.updateProject(project.id, { name: "Hooks v2" });
    await client.createProjectUpdate({ projectId: project.id, body: "Started.", health: LinearDocument.ProjectUpdateHealthType.OnTrack });
    const doc = await (await client.createDocument({ title: "Hook doc", content: "x", projectId: project.id })).document;
    await client.updateDocument(doc?.id ?? "", { title: "Hook doc v2" });
    await client.createIssueLabel({ name: "Hooked", teamId: team.id, color: "#112233" });
    const cycle = await (await client.createCycle({ teamId: team.id, startsAt: new Date("2027-01-04"), endsAt: new Date("2027-01-18") }))
      .cycle;
    await client.updateCycle(cycle?.id ?? "", { name: "Hook sprint" });
    await client.createReaction({ issueId: "ENG-1", emoji: "+1" });
    await client.createAttachment({ issueId: "ENG-1", title: "Log", url: "https://logs.example.test/1" });
    const thread = (await (await client.issue("ENG-1")).comments()).nodes.find((c) => c.body === "Seen on iOS too.");
    await client.commentResolve(thread?.id ?? "");
    // 11 changes reach the catch-all endpoint, and the document's two also the documents-only one.
    const all = (await deliveries(start + 13)).slice(start);
    const everything = all.filter((d) => d.url === EVERYTHING);
    const seen = everything.map((d) => {
      const body = JSON.parse(d.body) as Envelope;
      return `${body.type}:${body.action}`;
    });
    expect(seen).toEqual([
      "Project:create",
      "Project:update",
      "ProjectUpdate:create",
      "Document:create",
      "Document:update",
      "IssueLabel:create",
      "Cycle:create",
      "Cycle:update",
      "Reaction:create",
      "Attachment:create",
      "Comment:update",
    ]);
    for (const d of everything) {
      expect(d.headers.get("linear-signature")).toBe(await hmacHex(SECRET, d.body));
      const body = JSON.parse(d.body) as Envelope;
      expect(d.headers.get("linear-event")).toBe(body.type);
      expect(typeof body.webhookTimestamp).toBe("number");
      expect(body.url).toMatch(/^https:\/\//);
      expect(Date.parse(body.createdAt)).not.toBeNaN();
    }
    const docsOnly = all.filter((d) => d.url === DOCS_ONLY).map((d) => JSON.parse(d.body) as Envelope);
    expect(docsOnly.map((b) => `${b.type}:${b.action}`)).toEqual(["Document:create", "Document:update"]);
    expect(docsOnly[1]).toMatchObject({ data: { title: "Hook doc v2" }, updatedFrom: { title: "Hook doc" } });
    const byType = (type: string, action: string) =>
      everything.map((d) => JSON.parse(d.body) as Envelope).find((b) => b.type === type && b.action === action);
    expect(byType("Project", "update")).toMatchObject({ data: { name: "Hooks v2" }, updatedFrom: { name: "Hooks" } });
    expect(byType("ProjectUpdate", "create")).toMatchObject({ data: { body: "Started.", health: "onTrack", projectId: project.id } });
    expect(byType("Cycle", "update")).toMatchObject({ data: { name: "Hook sprint" }, updatedFrom: { name: null } });
    expect(byType("Reaction", "create")).toMatchObject({ data: { emoji: "+1", issue: { identifier: "ENG-1" } } });
    expect(byType("Attachment", "create")).toMatchObject({ data: { title: "Log", url: "https://logs.example.test/1" } });
    expect(byType("Comment", "update")?.updatedFrom).toMatchObject({ resolvedAt: null });
  });

  it("scopes a team webhook to its team's resources", async () => {
    const world = hookedWorld();
    world.teams.push({ key: "OPS", name: "Operations", members: ["ada@acme.test"] } as never);
    Object.assign(world, { webhooks: [{ url: EVERYTHING, resourceTypes: ["IssueLabel"], team: "OPS", secret: SECRET }] });
    const client = linearFor(await linearSandbox(world));
    const start = delivered.length;
    const teams = (await client.teams()).nodes;
    const eng = teams.find((t) => t.key === "ENG");
    const ops = teams.find((t) => t.key === "OPS");
    await client.createIssueLabel({ name: "Eng only", teamId: eng?.id });
    await client.createIssueLabel({ name: "Ops only", teamId: ops?.id });
    const [hit] = (await deliveries(start + 1)).slice(start);
    expect(JSON.parse(hit.body)).toMatchObject({ type: "IssueLabel", action: "create", data: { name: "Ops only" } });
  });
});
