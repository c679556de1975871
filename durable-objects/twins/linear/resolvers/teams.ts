// Team administration: `teamCreate` and `teamUpdate`.
//
// Linear's schema (TeamCreateInput, @linear/sdk 88.3.0 schema.graphql) says of `key`: "If not
// given, the key will be generated based on the name of the team"; it publishes no length or
// character rule. The twin's rule is its own: a key is a letter then letters or digits, at most 7
// (what an identifier `KEY-n` needs to be found again in a branch name), unique in the workspace
// in any case. A new team gets the same default workflow as a seeded team without states
// (seed.ts DEFAULT_STATES, default state Backlog), and its creator as its first member.
// Changing a team's key renames its issues' identifiers; the old identifiers keep finding them,
// as after a move between teams.
import type { Gql, Row } from "../context";
import { invalidInput } from "../errors";
import { DEFAULT_STATES, ESTIMATION_TYPES } from "../seed";
import { has, inputOf, iso, newId, reload, strOr, syncId } from "./mutation";
import { mustFind } from "./query";
import type { Args, Resolver } from "./types";

export const TEAM_KEY_MAX = 7;

/** The key a team named `name` gets when none is given: its words' initials, or a single word's first three letters. */
export function keyFromName(name: string): string {
  const words = name.toUpperCase().match(/[A-Z][A-Z0-9]*/g) ?? [];
  if (words.length > 1)
    return words
      .map((w) => w[0] ?? "")
      .join("")
      .slice(0, TEAM_KEY_MAX);
  return (words[0] ?? "").slice(0, 3);
}

/** Why a key is refused, or null when it is a valid key. */
export function keyProblem(key: string): string | null {
  if (!key) return "Team key must not be empty";
  if (key.length > TEAM_KEY_MAX) return `Team key must be at most ${TEAM_KEY_MAX} characters`;
  if (!/^[A-Z][A-Z0-9]*$/.test(key)) return "Team key must start with a letter and contain only letters and digits";
  return null;
}

function keyTaken(gql: Gql, key: string, exceptTeamId: string): boolean {
  return gql.db.one("SELECT 1 AS n FROM lin_teams WHERE upper(key) = ? AND id <> ?", key, exceptTeamId) !== undefined;
}

function checkedKey(gql: Gql, raw: string, teamId: string): string {
  const key = raw.trim().toUpperCase();
  const problem = keyProblem(key);
  if (problem) throw invalidInput(problem, "The team key is not valid.");
  if (keyTaken(gql, key, teamId)) throw invalidInput(`Team key "${key}" is already taken`, "A team with this key already exists.");
  return key;
}

function checkedName(raw: unknown): string {
  const name = (strOr(raw) ?? "").trim();
  if (!name) throw invalidInput("name must not be empty", "The team needs a name.");
  if (name.length > 255) throw invalidInput("name must be at most 255 characters");
  return name;
}

function checkedEstimation(raw: unknown): string {
  const type = String(raw);
  if (!(ESTIMATION_TYPES as readonly string[]).includes(type))
    throw invalidInput(`Invalid issueEstimationType "${type}"`, "The estimation type is not valid.");
  return type;
}

/** A free key from the name: the generated one, then with 2, 3, … appended. */
function generatedKey(gql: Gql, name: string, teamId: string): string {
  const base = keyFromName(name) || "TEAM";
  for (let n = 1; n < 1000; n++) {
    const suffix = n === 1 ? "" : String(n);
    const key = base.slice(0, TEAM_KEY_MAX - suffix.length) + suffix;
    if (!keyTaken(gql, key, teamId)) return key;
  }
  throw invalidInput("Could not generate a free team key", "Give the team a key.");
}

function teamCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "TeamCreateInput", ["name", "key", "description", "issueEstimationType", "id"]);
  const id = newId(gql, input.id);
  if (gql.byId("Team", id)) throw invalidInput("id is already taken");
  const name = checkedName(input.name);
  const key = has(input, "key") && input.key !== null ? checkedKey(gql, String(input.key), id) : generatedKey(gql, name, id);
  const estimation = has(input, "issueEstimationType") ? checkedEstimation(input.issueEstimationType) : "notUsed";
  const now = iso(gql);
  gql.db.run(
    "INSERT INTO lin_teams (id, key, name, description, estimation_type, default_state_id, next_number, created_at) VALUES (?, ?, ?, ?, ?, NULL, 1, ?)",
    id,
    key,
    name,
    strOr(input.description),
    estimation,
    now,
  );
  const stateIds = DEFAULT_STATES.map((s, position) => {
    const stateId = newId(gql, undefined);
    gql.db.run(
      "INSERT INTO lin_states (id, team_id, name, type, color, position, description, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)",
      stateId,
      id,
      s.name,
      s.type,
      s.color,
      position,
      now,
    );
    return { stateId, type: s.type };
  });
  const backlog = stateIds.find((s) => s.type === "backlog") ?? stateIds[0];
  gql.db.run("UPDATE lin_teams SET default_state_id = ? WHERE id = ?", backlog?.stateId ?? null, id);
  gql.db.run("INSERT INTO lin_team_members (team_id, user_id, position) VALUES (?, ?, 0)", id, gql.viewerId);
  return { success: true, lastSyncId: syncId(gql), team: reload(gql, "Team", id) };
}

function defaultStateOf(gql: Gql, team: Row, raw: unknown): string {
  const state = gql.db.one<Row>("SELECT * FROM lin_states WHERE id = ? AND team_id = ?", String(raw), team.id);
  if (!state) throw invalidInput("defaultIssueStateId must be a state of the team", "The default state must be one of the team's states.");
  if (state.archived_at !== null) throw invalidInput("defaultIssueStateId must not be archived", "The default state is archived.");
  if (state.type === "triage") throw invalidInput("The default state cannot be a triage state");
  return String(state.id);
}

/** Renames a team's issues for a new key; the old identifiers keep finding them. */
function rekeyIssues(gql: Gql, teamId: string, key: string) {
  gql.db.run(
    "INSERT OR IGNORE INTO lin_former_identifiers (identifier, issue_id) SELECT identifier, id FROM lin_issues WHERE team_id = ?",
    teamId,
  );
  gql.db.run("UPDATE lin_issues SET identifier = ? || '-' || number WHERE team_id = ?", key, teamId);
  for (const row of gql.db.all<{ id: string }>("SELECT id FROM lin_issues WHERE team_id = ?", teamId)) gql.forget("Issue", row.id);
  // An identifier that is an issue's own again is no longer a former one.
  gql.db.run("DELETE FROM lin_former_identifiers WHERE identifier IN (SELECT identifier FROM lin_issues WHERE team_id = ?)", teamId);
}

function teamUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "TeamUpdateInput", ["name", "key", "description", "issueEstimationType", "defaultIssueStateId"]);
  const team = mustFind(gql, "Team", String(args.id));
  const name = has(input, "name") ? checkedName(input.name) : String(team.name);
  const key = has(input, "key") && input.key !== null ? checkedKey(gql, String(input.key), String(team.id)) : String(team.key);
  const estimation = has(input, "issueEstimationType") ? checkedEstimation(input.issueEstimationType) : String(team.estimation_type);
  const defaultState = has(input, "defaultIssueStateId") ? defaultStateOf(gql, team, input.defaultIssueStateId) : team.default_state_id;
  gql.db.run(
    "UPDATE lin_teams SET name = ?, key = ?, description = ?, estimation_type = ?, default_state_id = ? WHERE id = ?",
    name,
    key,
    has(input, "description") ? strOr(input.description) : team.description,
    estimation,
    defaultState,
    team.id,
  );
  if (key !== team.key) rekeyIssues(gql, String(team.id), key);
  return { success: true, lastSyncId: syncId(gql), team: reload(gql, "Team", String(team.id)) };
}

export const TEAM_MUTATIONS: Record<string, Resolver> = {
  teamCreate: (_s, a, g) => teamCreate(g, a),
  teamUpdate: (_s, a, g) => teamUpdate(g, a),
};
