// The Stripe twin's tables. Every Stripe object is one row holding its unexpanded JSON, with
// the columns its lists filter on pulled out and indexed: point reads go by id, list pages walk
// (type, filter, created, n) and cost the page they return. `n` is creation order, the tiebreak
// for objects created in the same second. Each filter index carries `deleted`, so a filtered page
// is read from that filter's index, never by walking every object of the type.

export const STRIPE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE st_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE st_objects (
     n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, created INTEGER NOT NULL,
     customer TEXT, ref TEXT, ref2 TEXT, status TEXT, deleted INTEGER NOT NULL DEFAULT 0, data TEXT NOT NULL);
   CREATE INDEX st_objects_type ON st_objects (type, deleted, created, n);
   CREATE INDEX st_objects_customer ON st_objects (type, customer, deleted, created, n);
   CREATE INDEX st_objects_ref ON st_objects (type, ref, deleted, created, n);
   CREATE INDEX st_objects_ref2 ON st_objects (type, ref2, deleted, created, n);
   CREATE INDEX st_objects_status ON st_objects (type, status, deleted, created, n);
   CREATE TABLE st_idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL);`,
];
