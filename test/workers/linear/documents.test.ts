// Documents through @linear/sdk: seeded and created documents, markdown content, a project's
// documents, filters, sorting and pages, updates, trash and restore, and the refusals Linear gives.
import { Document, LinearError } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/** Acme with two documents: a spec in the Checkout project and a note of Bob's outside any project. */
const docsWorld = () =>
  acmeWorld({
    documents: [
      {
        title: "Checkout spec",
        content: "# Checkout\n\n- [ ] retry expired cards",
        project: "Checkout revamp",
        createdAt: "2026-07-01T09:00:00Z",
      },
      { title: "Onboarding notes", content: "Bring a laptop.", creator: "bob@acme.test", createdAt: "2026-07-02T09:00:00Z" },
    ],
  });

describe("linear twin: documents are read through @linear/sdk", () => {
  it("lists seeded documents newest first, with content, creator and project", async () => {
    const client = linearFor(await linearSandbox(docsWorld()));
    const docs = await client.documents();
    expect(docs.nodes.map((d) => d.title)).toEqual(["Onboarding notes", "Checkout spec"]);
    const spec = docs.nodes[1];
    expect(spec).toBeInstanceOf(Document);
    expect(spec.content).toBe("# Checkout\n\n- [ ] retry expired cards");
    expect((await spec.creator)?.email).toBe("ada@acme.test");
    expect((await spec.project)?.name).toBe("Checkout revamp");
    expect(spec.url).toMatch(/^https:\/\/linear\.app\/acme\/document\/checkout-spec-[0-9a-f]{12}$/);
    expect((await client.document(spec.slugId)).id).toBe(spec.id);
  });

  it("filters by title, creator and project, and sorts by title", async () => {
    const client = linearFor(await linearSandbox(docsWorld()));
    const byTitle = await client.documents({ filter: { title: { containsIgnoreCase: "SPEC" } } });
    expect(byTitle.nodes.map((d) => d.title)).toEqual(["Checkout spec"]);
    const bobs = await client.documents({ filter: { creator: { email: { eq: "bob@acme.test" } } } });
    expect(bobs.nodes.map((d) => d.title)).toEqual(["Onboarding notes"]);
    const inProject = await client.documents({ filter: { project: { name: { eq: "Checkout revamp" } } } });
    expect(inProject.nodes.map((d) => d.title)).toEqual(["Checkout spec"]);
    const sorted = await gql(
      await linearSandbox(docsWorld()),
      `{ documents(sort: [{ title: { order: Ascending } }]) { nodes { title } } }`,
    );
    expect(sorted.body.data).toEqual({ documents: { nodes: [{ title: "Checkout spec" }, { title: "Onboarding notes" }] } });
  });

  it("pages documents with first/after", async () => {
    const client = linearFor(await linearSandbox(docsWorld()));
    const first = await client.documents({ first: 1 });
    expect(first.nodes.map((d) => d.title)).toEqual(["Onboarding notes"]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = await first.fetchNext();
    expect(next.nodes.map((d) => d.title)).toEqual(["Onboarding notes", "Checkout spec"]);
  });

  it("lists a project's documents", async () => {
    const client = linearFor(await linearSandbox(docsWorld()));
    const project = (await client.projects()).nodes[0];
    expect((await project.documents()).nodes.map((d) => d.title)).toEqual(["Checkout spec"]);
  });
});

describe("linear twin: documents are written through @linear/sdk", () => {
  it("creates a document in a project with markdown content, then updates it", async () => {
    const client = linearFor(await linearSandbox());
    const project = (await client.projects()).nodes[0];
    const created = await client.createDocument({ title: "Runbook", content: "## Steps\n1. page on-call", projectId: project.id });
    expect(created.success).toBe(true);
    const doc = await created.document;
    expect(doc?.title).toBe("Runbook");
    expect((await doc?.project)?.id).toBe(project.id);
    if (!doc) throw new Error("no document");
    const updated = await client.updateDocument(doc.id, {
      title: "Incident runbook",
      content: "## Steps\n1. page on-call\n2. open an issue",
    });
    expect((await updated.document)?.content).toBe("## Steps\n1. page on-call\n2. open an issue");
    const again = await client.document(doc.id);
    expect(again.title).toBe("Incident runbook");
    expect((await again.updatedBy)?.email).toBe("ada@acme.test");
  });

  it("trashes a document (documentDelete) and restores it (documentUnarchive)", async () => {
    const client = linearFor(await linearSandbox(docsWorld()));
    const spec = (await client.documents({ filter: { title: { eq: "Checkout spec" } } })).nodes[0];
    const deleted = await client.deleteDocument(spec.id);
    expect(deleted.success).toBe(true);
    expect((await deleted.entity)?.trashed).toBe(true);
    expect((await client.documents()).nodes.map((d) => d.title)).toEqual(["Onboarding notes"]);
    expect((await client.documents({ includeArchived: true })).nodes).toHaveLength(2);
    await client.unarchiveDocument(spec.id);
    const restored = await client.document(spec.id);
    expect(restored.trashed).toBeUndefined();
    expect(restored.archivedAt).toBeUndefined();
    expect((await client.documents()).nodes).toHaveLength(2);
  });

  it("refuses an empty title, an unknown project and an unknown document as Linear does", async () => {
    const client = linearFor(await linearSandbox());
    await expect(client.createDocument({ title: " " })).rejects.toBeInstanceOf(LinearError);
    await expect(client.createDocument({ title: "x", projectId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow(
      /Entity not found/,
    );
    await expect(client.document("00000000-0000-4000-8000-000000000000")).rejects.toThrow(/Entity not found/);
    expect((await client.documents()).nodes).toEqual([]);
  });

  it("answers 501 for a parent the twin does not keep documents in (a team)", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, `mutation { documentCreate(input: { title: "x", teamId: "ENG" }) { success } }`);
    expect(res.status).toBe(501);
  });
});

describe("linear twin: documents are seed state", () => {
  it("exports the documents it boots and the ones written since", async () => {
    const seed = parseLinearSeed(docsWorld());
    if (!seed.ok) throw new Error(JSON.stringify(seed.issues));
    await inTwinWorld(linearTwin, docsWorld(), (w) => {
      expect(w.exportState()).toStrictEqual(seed.seed);
      w.call("POST", "/graphql", {
        body: { query: 'mutation { documentCreate(input: { title: "Later", content: "**bold**" }) { success } }' },
      });
      const exported = w.exportState();
      expect(exported.documents?.map((d) => [d.title, d.content, d.creator])).toEqual([
        ["Checkout spec", "# Checkout\n\n- [ ] retry expired cards", "ada@acme.test"],
        ["Onboarding notes", "Bring a laptop.", "bob@acme.test"],
        ["Later", "**bold**", "ada@acme.test"],
      ]);
    });
  });

  it("refuses a document in an unknown project", () => {
    const parsed = parseLinearSeed(acmeWorld({ documents: [{ title: "x", project: "Nope" }] }));
    expect(parsed.ok).toBe(false);
  });
});
