// The import rules of ARCHITECTURE.md, checked in `npm test` (its `npm run deps` step). A rule's comment is what the failure prints beside the offending import.
// There are no known violations to excuse: any violation fails.
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
      name: "redaction-pure",
      severity: "error",
      comment:
        "Redaction (durable-objects/redaction.ts) is pure functions of the patterns it is given: it imports no twin, no registry and no contract. The platform binds the registry's patterns in redact.ts.",
      from: { path: "^durable-objects/redaction\\.ts$" },
      to: { path: "^durable-objects/twins/(?!kit/)" },
    },
    {
      name: "twins-apart",
      severity: "error",
      comment: "A twin imports only its own folder, the kit, the contract and the platform's shared modules, never another twin.",
      from: { path: "^durable-objects/twins/([^/]+)/" },
      to: { path: "^durable-objects/twins/(?!kit/)([^/]+)/", pathNot: "^durable-objects/twins/$1/" },
    },
    {
      name: "twins-through-the-kit",
      severity: "error",
      comment:
        "A twin reaches the platform only through the contract (twins/types.ts) and the kit (twins/kit/, e.g. kit/platform.ts): a platform module imported directly ties the twin to the platform's inside.",
      from: { path: "^durable-objects/twins/(?!kit/)[^/]+/" },
      to: { path: "^durable-objects/(?!twins/)" },
    },
    {
      name: "grading-not-to-tasks",
      severity: "error",
      comment:
        "Grading (checks, binding, judging) knows nothing of task files or of finalize: tasks/ reads grading's vocabulary to validate criteria, and finalize/ joins the two.",
      from: { path: "^workers/grading/" },
      to: { path: "^workers/(tasks|finalize)/" },
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
