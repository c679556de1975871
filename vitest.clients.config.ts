// `npm run test:clients`: official clients in other languages (Debian's python3-github,
// python3-stripe and python3-googleapi) against the real local server. Kept out of `npm test`,
// whose machine need not have them; CI installs them and runs this after the suite (.ci/run).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "clients",
    include: ["test/clients/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/node/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
