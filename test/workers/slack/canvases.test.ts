// Canvases through WebClient: canvases.create, canvases.edit (one change a call, as docs.slack.dev
// says: `changes` has minItems 1, maxItems 1), canvases.sections.lookup and canvases.delete. A
// canvas is a file of filetype "quip" (files.info shows it), exported in `files` with its markdown,
// and a world booted from that export has the same canvas, with the same section ids.
import { describe, expect, it } from "vitest";
import { slackErrorOf, slackSandbox, stateOf, webFor } from "./client";
import { ACME_SCOPES, acmeSeed } from "./fixtures";
import { parseSlackSeed } from "../../../durable-objects/twins/slack/seed";
import { createSandbox } from "../helpers";

const SCOPES = `${ACME_SCOPES},canvases:read,canvases:write`;
const md = (markdown: string) => ({ type: "markdown" as const, markdown });

async function canvasWorld() {
  const { sandbox, web } = await slackSandbox(
    acmeSeed({
      installation: {
        app_id: "A0DEPLOY",
        bot_user_id: "U0BOT",
        scope: SCOPES,
        authed_user: { id: "U0ALICE", scope: "canvases:read,canvases:write" },
      },
    }),
  );
  const created = await web.canvases.create({
    title: "Incident review",
    document_content: md("# Timeline\n09:00 paged\n\n## Actions\n- Add an alert"),
  });
  return { sandbox, web, id: created.canvas_id ?? "" };
}

describe("slack canvases", () => {
  it("creates a canvas the caller owns, shown by files.info as a quip file and exported in files", async () => {
    const { sandbox, web, id } = await canvasWorld();
    expect(id).toMatch(/^F[A-Z0-9]+$/);
    const info = await web.files.info({ file: id });
    expect(info.file).toMatchObject({
      id,
      title: "Incident review",
      filetype: "quip",
      mimetype: "application/vnd.slack-docs",
      user: "U0BOT",
    });
    const files = (await stateOf(sandbox)).files as { id: string; filetype: string; content: string }[];
    expect(files.find((f) => f.id === id)).toMatchObject({
      filetype: "quip",
      content: "# Timeline\n09:00 paged\n\n## Actions\n- Add an alert",
    });
  });

  it("finds sections by heading level and text, and edits them one change a call", async () => {
    const { web, id } = await canvasWorld();
    const h1 = await web.canvases.sections.lookup({ canvas_id: id, criteria: { section_types: ["h1"] } });
    const [timeline] = h1.sections ?? [];
    expect(h1.sections).toHaveLength(1);
    expect(timeline?.id).toMatch(/^temp:C:[0-9a-fA-F]{28}$/);
    const anyHeader = await web.canvases.sections.lookup({ canvas_id: id, criteria: { section_types: ["any_header"] } });
    expect(anyHeader.sections).toHaveLength(2);
    const paged = await web.canvases.sections.lookup({ canvas_id: id, criteria: { contains_text: "PAGED" } });
    expect(paged.sections).toHaveLength(1);

    await web.canvases.edit({
      canvas_id: id,
      changes: [{ operation: "insert_after", section_id: paged.sections?.[0]?.id ?? "", document_content: md("09:05 acked") }],
    });
    await web.canvases.edit({ canvas_id: id, changes: [{ operation: "insert_at_start", document_content: md("> Draft") }] });
    await web.canvases.edit({ canvas_id: id, changes: [{ operation: "delete", section_id: timeline?.id ?? "" }] });
    const after = await web.canvases.sections.lookup({ canvas_id: id, criteria: { contains_text: "" } });
    expect(after.sections).toHaveLength(5);
    // The heading deleted, its body kept; the rest where they were put.
    expect((await web.canvases.sections.lookup({ canvas_id: id, criteria: { section_types: ["any_header"] } })).sections).toHaveLength(1);

    await web.canvases.edit({ canvas_id: id, changes: [{ operation: "replace", document_content: md("Only this") }] });
    expect((await web.canvases.sections.lookup({ canvas_id: id, criteria: { contains_text: "" } })).sections).toHaveLength(1);
    expect((await web.files.info({ file: id })).file?.title).toBe("Incident review");
  });

  it("refuses what Slack refuses, and a refused edit changes nothing", async () => {
    const { sandbox, web, id } = await canvasWorld();
    const before = JSON.stringify((await stateOf(sandbox)).files);
    expect(
      await slackErrorOf(web.canvases.edit({ canvas_id: "F0NOPE", changes: [{ operation: "insert_at_end", document_content: md("x") }] })),
    ).toBe("canvas_not_found");
    expect(
      await slackErrorOf(
        web.canvases.edit({ canvas_id: id, changes: [{ operation: "delete", section_id: "temp:C:000000000000000000000000000" }] }),
      ),
    ).toBe("canvas_editing_failed");
    expect(
      await slackErrorOf(
        web.canvases.edit({
          canvas_id: id,
          changes: [
            { operation: "insert_at_end", document_content: md("a") },
            { operation: "insert_at_end", document_content: md("b") },
          ],
        }),
      ),
    ).toBe("invalid_arguments");
    // A file that is not a canvas is not one.
    expect(await slackErrorOf(web.canvases.sections.lookup({ canvas_id: "F0RUNBOOK", criteria: { contains_text: "x" } }))).toBe(
      "canvas_not_found",
    );
    expect(JSON.stringify((await stateOf(sandbox)).files)).toBe(before);
    // Another token's canvas is not the caller's to edit (a standalone canvas is its creator's).
    const aliceWeb = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    expect(
      await slackErrorOf(aliceWeb.canvases.edit({ canvas_id: id, changes: [{ operation: "insert_at_end", document_content: md("x") }] })),
    ).toBe("canvas_not_found");
  });

  it("deletes a canvas, which leaves a tombstone", async () => {
    const { web, id } = await canvasWorld();
    await web.canvases.delete({ canvas_id: id });
    expect(await slackErrorOf(web.files.info({ file: id }))).toBe("file_deleted");
    expect(await slackErrorOf(web.canvases.sections.lookup({ canvas_id: id, criteria: { contains_text: "x" } }))).toBe("canvas_deleted");
    expect(await slackErrorOf(web.canvases.delete({ canvas_id: id }))).toBe("canvas_not_found");
  });

  it("creates one channel canvas per channel, which the channel's members may edit, exported with the channel", async () => {
    const { sandbox, web } = await canvasWorld();
    const created = await web.conversations.canvases.create({
      channel_id: "C0INCIDENT",
      title: "Incident room",
      document_content: md("Status: open"),
    });
    const id = created.canvas_id ?? "";
    expect((await web.files.info({ file: id })).file).toMatchObject({ filetype: "quip", title: "Incident room" });
    expect(await slackErrorOf(web.conversations.canvases.create({ channel_id: "C0INCIDENT" }))).toBe("channel_canvas_already_exists");
    // The bot is not in #leads.
    expect(await slackErrorOf(web.conversations.canvases.create({ channel_id: "C0LEADS" }))).toBe("channel_not_found");
    // Alice is in #incidents: the channel's canvas is hers to edit too.
    const aliceWeb = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    await aliceWeb.canvases.edit({ canvas_id: id, changes: [{ operation: "insert_at_end", document_content: md("Owner: alice") }] });
    const state = await stateOf(sandbox);
    const channels = state.channels as { id: string; canvas?: string }[];
    expect(channels.find((c) => c.id === "C0INCIDENT")?.canvas).toBe(id);
    const files = state.files as { id: string; content: string }[];
    expect(files.find((f) => f.id === id)?.content).toBe("Status: open\n\nOwner: alice");
    // Deleting it frees the channel for a new one.
    await web.canvases.delete({ canvas_id: id });
    expect(
      ((await stateOf(sandbox)).channels as { id: string; canvas?: string }[]).find((c) => c.id === "C0INCIDENT")?.canvas,
    ).toBeUndefined();
    expect((await web.conversations.canvases.create({ channel_id: "C0INCIDENT" })).canvas_id).toMatch(/^F/);
  });

  it("refuses a seeded channel canvas that names no canvas, at its path", () => {
    const paths = (canvas: string) => {
      const seed = acmeSeed();
      (seed.channels[0] as { canvas?: string }).canvas = canvas;
      const r = parseSlackSeed(seed);
      return r.ok ? [] : r.issues.map((i) => i.path);
    };
    expect(paths("F0RUNBOOK")).toEqual(["channels[0].canvas"]);
    expect(paths("F0NOPE")).toEqual(["channels[0].canvas"]);
  });

  it("boots its export into the same canvas, with the same section ids", async () => {
    const { sandbox, web, id } = await canvasWorld();
    const ids = async (w: typeof web) =>
      (await w.canvases.sections.lookup({ canvas_id: id, criteria: { contains_text: "" } })).sections?.map((s) => s.id);
    await web.conversations.canvases.create({ channel_id: "C0GENERAL", document_content: md("# Welcome") });
    const exported = await stateOf(sandbox);
    const again = await createSandbox({ twins: ["slack"], seed: exported });
    const web2 = webFor(again);
    expect(await ids(web2)).toEqual(await ids(web));
    const after = await stateOf(again);
    expect(after.files).toEqual(exported.files);
    expect(after.channels).toEqual(exported.channels);
  });
});
