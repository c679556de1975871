// What a Stripe call carries into a route's handler. Apart from call.ts, which serves calls, so the
// modules call.ts itself reaches (the acting account, the objects view.ts renders) can take a
// call without importing the module that serves it.
import type { Db, TwinContext } from "../types";
import type { Params } from "./params";

export interface Call {
  ctx: TwinContext;
  db: Db;
  p: Params;
  /** Unix seconds on the sandbox clock. */
  now: number;
  idempotencyKey: string | undefined;
}
