// The kit's table maps: one declaration per table gives both boot (set-wise insert) and export
// (select and rebuild), so what goes in comes back out, field for field and in the map's order.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Db } from "../../../durable-objects/sql";
import {
  type ListTable,
  Refs,
  assembled,
  col,
  insertLists,
  insertObjects,
  insertPlaced,
  objectOf,
  readLists,
  readRows,
  tableMap,
} from "../../../durable-objects/twins/kit/world-table";

function withDb<T>(fn: (db: Db) => T): Promise<T> {
  return runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
    const db = new Db(state.storage.sql);
    db.run(`CREATE TABLE t_people (id TEXT PRIMARY KEY, email TEXT NOT NULL, nick TEXT, admin INTEGER NOT NULL,
      prefs TEXT NOT NULL, score REAL, away_until TEXT, manager_id TEXT, updated_at TEXT)`);
    db.run("CREATE TABLE t_notes (id TEXT PRIMARY KEY, person_id TEXT NOT NULL, body TEXT NOT NULL, position INTEGER NOT NULL)");
    db.run(
      "CREATE TABLE t_follows (person_id TEXT NOT NULL, followed_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (person_id, followed_id))",
    );
    return fn(db);
  });
}

/** A seed object: references to other people by email, as a seed names them. */
interface Person {
  email: string;
  id: string;
  nick: string | null;
  admin: boolean;
  prefs: { theme: string; tags: string[] };
  score: number | null;
  awayUntil?: string;
  manager: string | null;
  follows: string[];
  notes: Note[];
}
interface Note {
  id: string;
  body: string;
}
type PeopleRefs = Refs<{ person: string }>;

const personRef = (column: string) =>
  col.custom<string | null, PeopleRefs>(
    column,
    (email, refs) => (email === null ? null : refs.id("person", email.toLowerCase())),
    (cell, refs) => refs.key("person", cell) ?? null,
  );

const people = tableMap<Person, PeopleRefs>()({
  table: "t_people",
  fields: {
    email: col.text("email"),
    id: col.text("id"),
    nick: col.nullableText("nick"),
    admin: col.flag("admin"),
    prefs: col.json<Person["prefs"]>("prefs"),
    score: col.nullableNumber("score"),
    awayUntil: col.optional(col.text("away_until")),
    manager: personRef("manager_id"),
    follows: assembled,
    notes: assembled,
  },
  derived: { updated_at: () => "2026-01-01T00:00:00Z" },
});
const notes = tableMap<Note, PeopleRefs, { personId: string; position: number }>()({
  table: "t_notes",
  fields: { id: col.text("id"), body: col.text("body") },
  derived: { person_id: ({ place }) => place.personId, position: ({ place }) => place.position },
});
const follows: ListTable<string, PeopleRefs> = {
  table: "t_follows",
  owner: "person_id",
  item: col.custom<string, PeopleRefs>(
    "followed_id",
    (email, refs) => refs.id("person", email.toLowerCase()) ?? "",
    (cell, refs) => refs.key("person", cell) ?? String(cell),
  ),
  position: "position",
  orIgnore: true,
};

const ADA: Person = {
  email: "Ada@x.test",
  id: "p1",
  nick: null,
  admin: true,
  prefs: { theme: "dark", tags: ["a", "b"] },
  score: 1.5,
  awayUntil: "2026-02-01T00:00:00Z",
  manager: null,
  follows: ["bob@x.test"],
  notes: [
    { id: "n1", body: "first" },
    { id: "n2", body: "second" },
  ],
};
const BOB: Person = {
  email: "bob@x.test",
  id: "p2",
  nick: "bobby",
  admin: false,
  prefs: { theme: "light", tags: [] },
  score: null,
  manager: "Ada@x.test",
  follows: ["Ada@x.test", "ada@x.test"],
  notes: [],
};

function boot(db: Db, seed: readonly Person[]): void {
  const refs: PeopleRefs = new Refs();
  for (const p of seed) refs.add("person", p.id, p.email, p.email.toLowerCase());
  insertObjects(db, people, seed, refs);
  insertPlaced(
    db,
    notes,
    seed.flatMap((p) => p.notes.map((value, position) => ({ value, place: { personId: p.id, position } }))),
    refs,
  );
  insertLists(db, follows, seed, (p) => ({ id: p.id, items: p.follows }), refs);
}

function exportPeople(db: Db): Person[] {
  const rows = readRows(db, people.table);
  const refs: PeopleRefs = new Refs();
  for (const row of rows) refs.add("person", String(row.id), String(row.email));
  const followed = readLists(db, follows, refs);
  const noteRows = readRows(db, notes.table, "ORDER BY person_id, position");
  return rows.map((row) =>
    objectOf(people, row, refs, {
      follows: followed.get(String(row.id)) ?? [],
      notes: noteRows.filter((n) => n.person_id === row.id).map((n) => objectOf(notes, n, refs)),
    }),
  );
}

describe("a table map gives boot and export from one declaration", () => {
  it("exports what it booted, field for field", async () => {
    const exported = await withDb((db) => {
      boot(db, [ADA, { ...BOB, follows: ["ada@x.test"] }]);
      return exportPeople(db);
    });
    expect(exported).toEqual([ADA, { ...BOB, follows: ["Ada@x.test"] }]);
  });

  it("writes the fields in the map's order and leaves an unset optional field out", async () => {
    const [ada, bob] = await withDb((db) => {
      boot(db, [ADA, BOB]);
      return exportPeople(db);
    });
    expect(Object.keys(ada)).toEqual(["email", "id", "nick", "admin", "prefs", "score", "awayUntil", "manager", "follows", "notes"]);
    expect("awayUntil" in bob).toBe(false);
    expect(Object.keys(bob)).toEqual(["email", "id", "nick", "admin", "prefs", "score", "manager", "follows", "notes"]);
  });

  it("stores booleans as 0/1, structures as JSON, references as ids and derived columns beside them", async () => {
    const rows = await withDb((db) => {
      boot(db, [ADA, BOB]);
      return readRows(db, "t_people");
    });
    expect(rows[0]).toMatchObject({ admin: 1, prefs: '{"theme":"dark","tags":["a","b"]}', away_until: "2026-02-01T00:00:00Z" });
    expect(rows[1]).toMatchObject({ admin: 0, manager_id: "p1", away_until: null, score: null, updated_at: "2026-01-01T00:00:00Z" });
  });

  it("keeps a list's first mention of an item when the list table ignores repeats", async () => {
    const [, bob] = await withDb((db) => {
      boot(db, [ADA, BOB]);
      return exportPeople(db);
    });
    expect(bob.follows).toEqual(["Ada@x.test"]);
  });

  it("boots nothing for an empty list and exports an empty table as no objects", async () => {
    expect(
      await withDb((db) => {
        boot(db, []);
        return exportPeople(db);
      }),
    ).toEqual([]);
  });
});

describe("Refs resolve references both ways", () => {
  it("finds an id by its lookup and a key by its id; unknown ones give nothing", () => {
    const refs = new Refs<{ state: string; cycle: number }>();
    refs.add("state", "s1", "Todo", "ENG|Todo");
    refs.add("cycle", "c1", 3, "ENG|3");
    expect(refs.id("state", "ENG|Todo")).toBe("s1");
    expect(refs.id("state", "OPS|Todo")).toBeNull();
    expect(refs.id("state", null)).toBeNull();
    expect(refs.key("cycle", "c1")).toBe(3);
    expect(refs.key("cycle", "nope")).toBeUndefined();
    expect(refs.key("state", null)).toBeUndefined();
  });
});
