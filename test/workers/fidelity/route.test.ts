// GET /v1/twins/:id/fidelity and the dashboard's Fidelity pages serve each twin's generated table.
import { describe, expect, it } from "vitest";
import type { FidelityReport } from "../../../durable-objects/twins/kit/fidelity/types";
import { TWIN_IDS } from "../../../durable-objects/twins/registry";
import { api, createSandbox, twinFetch } from "../helpers";

describe("every twin's fidelity table is served as JSON", () => {
  it("answers each registered twin with its operations, tiers and figures", async () => {
    for (const id of TWIN_IDS) {
      const res = await api(`/v1/twins/${id}/fidelity`);
      expect(res.status, id).toBe(200);
      const report = (await res.json()) as FidelityReport;
      expect(report.twin).toBe(id);
      expect(report.description.version).toMatch(/\d/);
      const { all } = report.coverage;
      expect(all.total).toBe(report.operations.length);
      expect(all.conformant + all.divergent + all.notImplemented).toBe(all.total);
      expect(report.operations.filter((o) => o.tier !== "501").length).toBe(all.conformant + all.divergent);
    }
  });

  it("refuses an unknown twin with a 404 in the platform's error shape", async () => {
    const res = await api("/v1/twins/nosuch/fidelity");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { type: "not_found", details: { twin: "nosuch" } } });
  });
});

describe("a call to an operation of the 501 tier is answered as the table says", () => {
  it("answers each twin's declared status, never a success", async () => {
    for (const id of TWIN_IDS) {
      const sandbox = await createSandbox({ twins: [id] });
      const report = (await (await api(`/v1/twins/${id}/fidelity`)).json()) as FidelityReport;
      const declared = Number(/HTTP (\d{3})/.exec(report.notImplementedAnswer)?.[1]);
      expect(declared, id).toBeGreaterThan(0);
      // A GraphQL twin's operations are root fields (`query issueVcsBranchSearch`): asked for by name.
      const op = report.operations.find((o) => o.tier === "501" && !o.id.includes("_dummy"));
      if (!op) continue;
      const graphql = op.path.startsWith("/graphql");
      const field = op.id.split(" ").at(-1);
      const res = await twinFetch(
        sandbox,
        graphql ? "/graphql" : op.path.replace(/\{[^}]+\}/g, "x1"),
        graphql
          ? {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ query: `${op.method} { ${field} }` }),
            }
          : { method: op.method, ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: "" }) },
        id,
      );
      expect(res.status, `${id} ${op.method} ${op.path}`).toBe(declared);
      const text = await res.text();
      if (declared === 200) expect(text, id).toContain('"ok":false');
    }
  });
});

describe("the dashboard shows each twin's fidelity", () => {
  it("lists every twin with its figures and links its table", async () => {
    const res = await api("/app/fidelity", { headers: { cookie: "pome_key=pme_local_dev" } });
    expect(res.status).toBe(200);
    const page = await res.text();
    for (const id of TWIN_IDS) expect(page).toContain(`href="/app/fidelity/${id}"`);
    expect(page).not.toMatch(/<script>/);
  });

  it("shows one twin's implemented operations with their tiers", async () => {
    const res = await api("/app/fidelity/github", { headers: { cookie: "pome_key=pme_local_dev" } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("issues/get");
    expect(page).toContain("@octokit/openapi");
  });
});
