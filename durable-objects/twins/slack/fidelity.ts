// Where this twin's answers knowingly differ from its vendor's published description, each with
// its reason. The one place: the schema-conformance test (test/node/fidelity/) fails on any other
// difference, and `npm run fidelity` marks these operations "divergent" in FIDELITY.md.
import type { Divergence } from "../kit/fidelity/types";

// The default world names its bot and team with short readable ids (B0BOT, T0ACME); Slack's are
// nine or more characters, which the description's id patterns require. A seed may use real-length ids.
const SHORT_IDS = "the default world's bot and team ids are short readable ones (B0BOT, T0ACME); Slack's have 9+ characters";
const NO_ICON_SIZES = "the twin's bot profile carries no image_36/48/72 icon URLs: the sandbox serves no bot avatars";

export const divergences: readonly Divergence[] = [
  { operation: "auth.test", path: "/bot_id", kind: "type", reason: SHORT_IDS },
  { operation: "team.info", path: "/team/id", kind: "type", reason: SHORT_IDS },
  { operation: "users.profile.get", path: "/profile/bot_id", kind: "type", reason: SHORT_IDS },
  { operation: "users.profile.get", path: "/profile/team", kind: "type", reason: SHORT_IDS },
  { operation: "conversations.history", path: "/messages/*/team", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/message/team", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/message/bot_profile/id", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/message/bot_profile/icons/image_36", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "chat.postMessage", path: "/message/bot_profile/icons/image_48", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "chat.postMessage", path: "/message/bot_profile/icons/image_72", kind: "missing", reason: NO_ICON_SIZES },
];
