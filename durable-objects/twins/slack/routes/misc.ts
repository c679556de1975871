// emoji.list (search.* are in routes/search.ts).
import type { Route } from "../../types";
import { method } from "../context";
import { customEmoji } from "../store/emoji";

export const miscRoutes: Route[] = [
  ...method({
    name: "emoji.list",
    summary: "The workspace's custom emoji: each name's image URL, or alias:<name>",
    scopes: ["emoji:read"],
    tool: { description: "The workspace's custom emoji: each name's image URL or alias:<name>.", readOnly: true },
    handler: (call) => ({ emoji: customEmoji(call.db), cache_ts: `${Math.floor(call.clock.now() / 1000)}.000000` }),
  }),
];
