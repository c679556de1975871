import { drizzle } from "drizzle-orm/d1";

export const database = (env: Env) => drizzle(env.DB);
export type Database = ReturnType<typeof database>;
