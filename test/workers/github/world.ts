// A GitHub world for unit tests: the twin kit's harness with GitHub's Accept header.
import { githubTwin } from "../../../durable-objects/twins/github";
import type { GithubSeed } from "../../../durable-objects/twins/github/seed";
import { inTwinWorld, type Answer, type CallOptions, type World as KitWorld } from "../kit/world";

export type { Answer };

export interface World extends Omit<KitWorld<GithubSeed>, "call" | "cost"> {
  call(method: string, path: string, opts?: CallOptions & { accept?: string }): Answer;
  cost(method: string, path: string, opts?: CallOptions): number;
}

const GITHUB_ACCEPT = "application/vnd.github.v3+json";

export function inWorld<T>(rawSeed: unknown, fn: (w: World) => T | Promise<T>): Promise<T> {
  return inTwinWorld(githubTwin, rawSeed, (w) =>
    fn({
      ...w,
      call: (method, path, opts = {}) =>
        w.call(method, path, { ...opts, headers: { accept: opts.accept ?? GITHUB_ACCEPT, ...opts.headers } }),
      cost: (method, path, opts = {}) => w.cost(method, path, { ...opts, headers: { accept: GITHUB_ACCEPT, ...opts.headers } }),
    }),
  );
}
