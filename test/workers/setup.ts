import { applyD1Migrations, env } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      LOAD_SCALE: string;
    }
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
