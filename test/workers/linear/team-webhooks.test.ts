// A webhook registered for one team through @linear/sdk hears only that team's events: an issue
// filed in another team is not delivered to it, and a workspace-wide webhook hears both.
import { beforeAll, describe, expect, it } from "vitest";
import { deliveries, delivered, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

const OPS_HOOK = "http://127.0.0.1:9/ops-only";
const ALL_HOOK = "http://127.0.0.1:9/all-teams";

describe("linear twin: a team's webhook receives only that team's events", () => {
  it("delivers an OPS issue to the OPS webhook and both issues to the workspace-wide one", async () => {
    const client = linearFor(await linearSandbox());
    const ops = await (await client.createTeam({ name: "Operations", key: "OPS" })).team;
    const eng = await client.team("ENG");
    await client.createWebhook({ url: OPS_HOOK, resourceTypes: ["Issue"], teamId: ops?.id, secret: "lin_wh_ops" });
    await client.createWebhook({ url: ALL_HOOK, resourceTypes: ["Issue"], allPublicTeams: true, secret: "lin_wh_all" });
    const start = delivered.length;
    await client.createIssue({ teamId: eng.id, title: "Engineering only" });
    await client.createIssue({ teamId: ops?.id ?? "", title: "Operations only" });
    const hits = (await deliveries(start + 3))
      .slice(start)
      .map((d) => [d.url, (JSON.parse(d.body) as { data: { title: string } }).data.title]);
    expect(hits.filter(([url]) => url === OPS_HOOK)).toEqual([[OPS_HOOK, "Operations only"]]);
    expect(
      hits
        .filter(([url]) => url === ALL_HOOK)
        .map(([, title]) => title)
        .sort(),
    ).toEqual(["Engineering only", "Operations only"]);
  });
});
