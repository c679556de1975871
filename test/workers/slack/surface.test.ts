// The rest of the surface agents touch, through WebClient: bookmarks edited and removed (and the
// export showing it), and conversations.close for DMs and group DMs only.
import { describe, expect, it } from "vitest";
import { slackErrorOf, slackSandbox, stateOf } from "./client";
import { acmeSeed } from "./fixtures";

describe("slack bookmarks edit and remove", () => {
  it("edits a bookmark's title and link, removes it, and refuses one that is not there", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const edited = await web.bookmarks.edit({
      channel_id: "C0INCIDENT",
      bookmark_id: "Bk0RUNBOOK",
      title: "DB runbook",
      link: "https://wiki.acme.test/db2",
    });
    expect(edited.bookmark).toMatchObject({ id: "Bk0RUNBOOK", title: "DB runbook", link: "https://wiki.acme.test/db2" });
    expect(
      await slackErrorOf(web.bookmarks.edit({ channel_id: "C0INCIDENT", bookmark_id: "Bk0RUNBOOK", link: "javascript:alert(1)" })),
    ).toBe("invalid_link");
    let channels = (await stateOf(sandbox)).channels as { id: string; bookmarks: { id: string; title: string }[] }[];
    expect(channels.find((c) => c.id === "C0INCIDENT")?.bookmarks).toEqual([
      { id: "Bk0RUNBOOK", title: "DB runbook", link: "https://wiki.acme.test/db2" },
    ]);
    await web.bookmarks.remove({ channel_id: "C0INCIDENT", bookmark_id: "Bk0RUNBOOK" });
    expect(await slackErrorOf(web.bookmarks.remove({ channel_id: "C0INCIDENT", bookmark_id: "Bk0RUNBOOK" }))).toBe("not_found");
    channels = (await stateOf(sandbox)).channels as { id: string; bookmarks: { id: string; title: string }[] }[];
    expect(channels.find((c) => c.id === "C0INCIDENT")?.bookmarks).toEqual([]);
  });
});

describe("slack conversations.close", () => {
  it("closes a DM once, and refuses a channel", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect(await web.conversations.close({ channel: "D0ALICE" })).toMatchObject({ ok: true });
    expect(await web.conversations.close({ channel: "D0ALICE" })).toMatchObject({ ok: true, no_op: true, already_closed: true });
    expect(await slackErrorOf(web.conversations.close({ channel: "C0GENERAL" }))).toBe("method_not_supported_for_channel_type");
  });
});
