// The import rules of ARCHITECTURE.md, checked in `npm test` (test/node/contract/import-rules.test.ts
// runs `npm run deps`). A rule's comment is what the failure prints beside the offending import.
// Known violations that predate a rule are listed in .dependency-cruiser-known-violations.json;
// anything new fails, and fixing a known one shrinks the file (`npm run deps:baseline`).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: modules that need each other cannot be understood, tested or moved apart.",
      from: {},
      to: { circular: true },
    },
    {
      name: "sandbox-not-to-router",
      severity: "error",
      comment:
        "The Sandbox Durable Object and the twins never import the router Worker (workers/): the Worker calls the Sandbox, not the reverse.",
      from: { path: "^durable-objects/" },
      to: { path: "^workers/" },
    },
    {
      name: "contract-not-to-twins",
      severity: "error",
      comment: "The twin contract (durable-objects/twins/types.ts) and the kit depend on no twin: twins implement the contract.",
      from: { path: "^durable-objects/twins/(types\\.ts|kit/)" },
      to: { path: "^durable-objects/twins/(?!kit/|types\\.ts)[^/]+/" },
    },
    {
      name: "twins-apart",
      severity: "error",
      comment: "A twin imports only its own folder, the kit, the contract and the platform's shared modules, never another twin.",
      from: { path: "^durable-objects/twins/([^/]+)/" },
      to: { path: "^durable-objects/twins/(?!kit/)([^/]+)/", pathNot: "^durable-objects/twins/$1/" },
    },
    {
      name: "platform-not-to-cli",
      severity: "error",
      comment: "The Worker and the Sandbox never import the command-line tool.",
      from: { path: "^(workers|durable-objects)/" },
      to: { path: "^cli/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.wrangler|dist)/" },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no JavaScript API yet (dependency-cruiser reads TypeScript through one); swc parses it instead.
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
