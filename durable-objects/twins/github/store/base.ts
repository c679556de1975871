// What every state function needs: the tables, the moment of the call, and who is acting. Plain
// data, so store functions run the same under a route and in a unit test over a bare Db.
import type { Db } from "../../types";
import { perStorage } from "../../kit/boot-constants";
import { nextCounter } from "../../kit/sql";

export interface Store {
  db: Db;
  /** GitHub's timestamp for this call (second resolution, `Z`). */
  now: string;
  /** The login the sandbox's credentials act as. */
  actor: string;
}

/** The next id of GitHub's single id space (issues, labels, comments, reviews, statuses...). */
export const nextId = (db: Db): number => nextCounter(db, "gh_meta", "next_id");

/** The login the credentials act as; boot sets it and nothing changes it, so it is read once per storage. */
const actors = perStorage<string>();

export const authenticatedLogin = (db: Db) =>
  actors(db).get("", () => db.one<{ value: string }>("SELECT value FROM gh_meta WHERE key = 'authenticated_user'")?.value ?? "");

export { bool, isoSeconds as toIso } from "../../kit/sql";
