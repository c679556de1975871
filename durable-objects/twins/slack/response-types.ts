// Node only. Slack's OpenAPI description dates from 2020–21 and refuses fields it does not list,
// while Slack has added many since (a message's `blocks`, a bot profile's `team_id`). @slack/web-api
// ships a response type per method generated from Slack's own answers
// (dist/types/response/<Method>Response.d.ts), so a field the description lacks but that type
// declares, at the same place, is one Slack sends: such an extra is Slack's, not the twin's.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Declarations, declarationsOf, referenced } from "../kit/fidelity/client-types";
import type { Difference } from "../kit/fidelity/conformance";

/** `users.profile.get` → `UsersProfileGetResponse`, the type @slack/web-api names its answer. */
export const responseTypeOf = (method: string) =>
  `${method
    .split(".")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")}Response`;

/** Why an extra field is Slack's own, or undefined: the method's @slack/web-api response type declares it there. */
export function declaredByWebApi(root: string) {
  const dir = path.join(root, "node_modules/@slack/web-api/dist/types/response");
  const files = new Map<string, Declarations | undefined>();
  const declarationsFor = (type: string) => {
    if (!files.has(type)) {
      const file = path.join(dir, `${type}.d.ts`);
      files.set(type, existsSync(file) ? declarationsOf(readFileSync(file, "utf8")) : undefined);
    }
    return files.get(type);
  };
  // Every response type is `WebAPICallResult & {…}`: the base's fields (ok, response_metadata) are every method's.
  const base = declarationsOf(readFileSync(path.join(root, "node_modules/@slack/web-api/dist/WebClient.d.ts"), "utf8"));
  const baseFields = base.interfaces.get("WebAPICallResult");
  return (d: Difference): string | undefined => {
    if (d.kind !== "extra") return undefined;
    const type = responseTypeOf(d.operation);
    const declarations = declarationsFor(type);
    const segments = d.path.split("/").filter(Boolean);
    const field = segments.pop();
    if (!declarations || !field) return undefined;
    if (segments.length === 0 && baseFields?.has(field)) return `declared by @slack/web-api's WebAPICallResult, every answer's base`;
    // Each type in a response file is named at the file's top level: follow the field types down.
    let owners = [type];
    for (const segment of segments) {
      if (segment === "*") continue;
      owners = owners.flatMap((name) => {
        const typeText = declarations.interfaces.get(name)?.get(segment);
        return typeText ? referenced(declarations, typeText, "") : [];
      });
    }
    const owner = owners.find((name) => declarations.interfaces.get(name)?.has(field));
    return owner ? `declared by @slack/web-api's ${owner} (its response types are generated from Slack's answers)` : undefined;
  };
}
