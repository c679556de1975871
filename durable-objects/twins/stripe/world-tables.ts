// The Stripe seed's column maps: for each st_ table a seed fills directly, which column keeps
// which field and how. Boot and export (world.ts) both go through these maps, so a column is
// declared once. st_idempotency is not mapped: only API calls fill it, a seed never does.
//
// Every Stripe object is one st_objects row holding its JSON. What Stripe derives is not declared
// here: the columns its lists filter on (customer, ref, ref2, status) come from the store's
// `indexColumnsOf`, the code every API write goes through, and what a stored subscription or
// invoice holds beyond its seed row (items with their periods, discounts, lines) is worked out by
// world.ts with the same builders the API uses, before the row comes here.
import { col, tableMap } from "../kit/world-table";
import { type IndexColumns, indexColumnsOf, num, type ObjectType, type Rec } from "./store";

/** One object as st_objects keeps it: its type, and the object itself as the API would store it. */
export interface StoredObject {
  readonly type: ObjectType;
  readonly object: Rec;
}

/** A deleted object keeps only its id: no list finds it by a filter column. */
const NOT_INDEXED: IndexColumns = { customer: null, ref: null, ref2: null, status: null };
const indexOf = ({ type, object }: StoredObject): IndexColumns => (object.deleted === true ? NOT_INDEXED : indexColumnsOf(type, object));

export const objects = tableMap<StoredObject>()({
  table: "st_objects",
  fields: {
    type: col.text<ObjectType>("type"),
    object: col.json<Rec>("data"),
  },
  // `n`, the creation order, is the row id: the order boot writes objects in.
  derived: {
    id: ({ value }) => String(value.object.id),
    created: ({ value }) => num(value.object.created) ?? 0,
    deleted: ({ value }) => (value.object.deleted === true ? 1 : 0),
    customer: ({ value }) => indexOf(value).customer,
    ref: ({ value }) => indexOf(value).ref,
    ref2: ({ value }) => indexOf(value).ref2,
    status: ({ value }) => indexOf(value).status,
  },
});

/** One st_meta entry a seed fills: a key and its JSON value (the balance, the platform account...). */
export interface MetaEntry {
  readonly key: string;
  readonly value: unknown;
}

export const meta = tableMap<MetaEntry>()({
  table: "st_meta",
  fields: { key: col.text("key"), value: col.json<unknown>("value") },
});
