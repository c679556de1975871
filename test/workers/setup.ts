import { applyD1Migrations, env } from "cloudflare:test";
import { afterEach, expect } from "vitest";
import { undeclaredDifferences } from "./conformance";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      LOAD_SCALE: string;
    }
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Every answer a test got from a twin conforms to its vendor's published schema, or the twin
// declares why not (issue 40): checked after each test, over the sandboxes it made.
afterEach(async () => {
  expect(await undeclaredDifferences()).toEqual([]);
});
