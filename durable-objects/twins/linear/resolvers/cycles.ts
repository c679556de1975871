// Cycle mutations beyond cycleCreate (mutation.ts): cycleUpdate changes a cycle's name,
// description, dates or completion, refusing dates that end before they start or overlap another
// cycle of the team, as cycleCreate does; cycleArchive archives it (lists leave it out unless
// includeArchived, and it is never a team's active, next or previous cycle).
import type { Gql } from "../context";
import { invalidInput } from "../errors";
import type { Args, Resolver } from "./types";
import { has, inputOf, iso, reload, strOr, syncId } from "./mutation";
import { mustFind } from "./query";
import { cycleEvent } from "../webhook-data";
import { resourceWebhooks } from "../webhooks";

const CYCLE_UPDATE_FIELDS = ["name", "description", "startsAt", "endsAt", "completedAt"] as const;

function time(v: unknown, field: string): string {
  if (typeof v !== "string" || Number.isNaN(Date.parse(v))) throw invalidInput(`${field} must be a date-time`);
  return v;
}

function cycleUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "CycleUpdateInput", CYCLE_UPDATE_FIELDS);
  const before = mustFind(gql, "Cycle", String(args.id));
  const startsAt = has(input, "startsAt") ? time(input.startsAt, "startsAt") : String(before.starts_at);
  const endsAt = has(input, "endsAt") ? time(input.endsAt, "endsAt") : String(before.ends_at);
  if (!(Date.parse(endsAt) > Date.parse(startsAt)))
    throw invalidInput("endsAt must be after startsAt", "A cycle must end after it starts.");
  const overlap = gql.db.one(
    `SELECT 1 AS n FROM lin_cycles WHERE team_id = ? AND id <> ? AND archived_at IS NULL
       AND julianday(starts_at) < julianday(?) AND julianday(ends_at) > julianday(?)`,
    before.team_id,
    before.id,
    endsAt,
    startsAt,
  );
  if (overlap) throw invalidInput("Cycle overlaps an existing cycle", "The cycle overlaps another cycle of this team.");
  const sets: string[] = [];
  const params: (string | null)[] = [];
  const set = (col: string, v: string | null) => {
    sets.push(`${col} = ?`);
    params.push(v);
  };
  if (has(input, "name")) set("name", strOr(input.name));
  if (has(input, "description")) set("description", strOr(input.description));
  if (has(input, "startsAt")) set("starts_at", startsAt);
  if (has(input, "endsAt")) set("ends_at", endsAt);
  if (has(input, "completedAt")) set("completed_at", input.completedAt === null ? null : time(input.completedAt, "completedAt"));
  if (sets.length) {
    set("updated_at", iso(gql));
    gql.db.run(`UPDATE lin_cycles SET ${sets.join(", ")} WHERE id = ?`, ...params, before.id);
  }
  const cycle = reload(gql, "Cycle", before.id);
  if (sets.length) resourceWebhooks(gql, "Cycle", "update", { ...cycleEvent(gql, cycle), before: cycleEvent(gql, before).data });
  return { success: true, lastSyncId: syncId(gql), cycle };
}

function cycleArchive(gql: Gql, args: Args) {
  const before = mustFind(gql, "Cycle", String(args.id));
  if (before.archived_at === null) {
    const now = iso(gql);
    gql.db.run("UPDATE lin_cycles SET archived_at = ?, updated_at = ? WHERE id = ?", now, now, before.id);
  }
  const entity = reload(gql, "Cycle", before.id);
  // Linear sends an archive as an update whose data carries archivedAt.
  if (before.archived_at === null)
    resourceWebhooks(gql, "Cycle", "update", { ...cycleEvent(gql, entity), before: cycleEvent(gql, before).data });
  return { success: true, lastSyncId: syncId(gql), entity };
}

export const CYCLE_MUTATIONS: Record<string, Resolver> = {
  cycleUpdate: (_s, a, g) => cycleUpdate(g, a),
  cycleArchive: (_s, a, g) => cycleArchive(g, a),
};
