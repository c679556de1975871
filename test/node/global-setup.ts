// One dev server for the whole Node project; tests read its URL with inject("pomeUrl").
import type { TestProject } from "vitest/node";
import { startDevServer, type DevServer } from "./server";

let server: DevServer | undefined;

export async function setup(project: TestProject) {
  server = await startDevServer();
  project.provide("pomeUrl", server.url);
}

export async function teardown() {
  await server?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    pomeUrl: string;
  }
}
