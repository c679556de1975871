// Row shapes of the sl_ tables as SQLite hands them back, the JSON each `data` column holds
// (written only by this twin), and the small key/value reads every area shares.
import type { Clock } from "../../types";
import type { Db } from "../../types";
import { nextCounter } from "../../kit/sql";
import { perStorage } from "../../kit/boot-constants";
import type {
  ScriptedReply,
  SlackFile,
  SlackInstallation,
  SlackMessage,
  SlackScheduled,
  SlackSeed,
  SlackUser,
  SlackUsergroup,
} from "../seed";

export interface UserRow {
  id: string;
  name: string;
  email: string | null;
  data: string;
}

export interface ChannelData {
  is_general: boolean;
  creator?: string;
  /** Its channel canvas's file id (conversations.canvases.create). */
  canvas?: string;
  topic: { value: string; creator: string; last_set: number };
  purpose: { value: string; creator: string; last_set: number };
}

export interface ChannelRow {
  id: string;
  name: string | null;
  is_im: number;
  im_user: string | null;
  is_private: number;
  is_archived: number;
  created: number;
  data: string;
  /** 1 for a multi-person DM (`mpim`); such a row is also is_private. */
  is_mpim: number;
}

/** What a message row keeps beside its indexed columns. */
export type MessageData = Omit<SlackMessage, "ts" | "thread_ts" | "user" | "text" | "reactions">;

export interface MessageRow {
  channel: string;
  ts: string;
  thread_ts: string | null;
  user: string;
  in_history: number;
  text: string;
  data: string;
  reply_count: number;
  reply_users: string;
  latest_reply: string | null;
}

export interface FileRow {
  id: string;
  complete: number;
  user: string;
  created: number;
  size: number;
  content: string | null;
  data: string;
}
/** A file's metadata; `encoding` says whether the seed gave its content as text or base64. */
export type FileData = Omit<SlackFile, "content" | "content_base64" | "created"> & { mimetype: string; encoding: "utf8" | "base64" };

export interface ReactionRow {
  channel: string;
  ts: string;
  name: string;
  user: string;
  seq: number;
}

// The JSON columns are written by this twin alone, from values of these very types.
export const userData = (row: UserRow) => JSON.parse(row.data) as SlackUser;
export const channelData = (row: ChannelRow) => JSON.parse(row.data) as ChannelData;
export const messageData = (row: MessageRow) => JSON.parse(row.data) as MessageData;
export const fileData = (row: FileRow) => JSON.parse(row.data) as FileData;
export const scheduledData = (data: string) => JSON.parse(data) as SlackScheduled;
export const usergroupData = (data: string) => JSON.parse(data) as SlackUsergroup;
export const scriptedData = (data: string) => JSON.parse(data) as ScriptedReply;
export const stringList = (text: string) => JSON.parse(text) as string[];

export const META = "sl_meta";

/** The timed delivery that posts a scheduled message once its post_at has passed. */
export const SCHEDULED_KIND = "scheduled_message";

function metaJson<T>(db: Db, key: string): T {
  const row = db.one<{ value: string }>("SELECT value FROM sl_meta WHERE key = ?", key);
  if (!row) throw new Error(`the Slack world has no ${key}`);
  return JSON.parse(row.value) as T;
}

export const readTeam = (db: Db) => metaJson<SlackSeed["team"]>(db, "team");
export const readInstallation = (db: Db) => metaJson<SlackInstallation>(db, "installation");

/**
 * The team and the installation, which no method changes once the world has booted: read once per
 * world (a Db is one sandbox's storage) rather than on every call.
 */
const identities = perStorage<{ team: SlackSeed["team"]; installation: SlackInstallation }>();
export const workspaceOf = (db: Db): { team: SlackSeed["team"]; installation: SlackInstallation } =>
  identities(db).get("", () => ({ team: readTeam(db), installation: readInstallation(db) }));

/** A counter for ordering rows (reactions, pins, bookmarks) in the order they were made. */
export const nextSeq = (db: Db) => nextCounter(db, META, "seq");

/** A fresh id with Slack's prefix, never one the seed used: `C0P…`, `F0P…`. */
export function newId(db: Db, prefix: string, exists: (id: string) => boolean): string {
  for (;;) {
    const n = nextCounter(db, META, `id:${prefix}`, 1);
    const id = `${prefix}0P${n.toString(36).toUpperCase().padStart(7, "0")}`;
    if (!exists(id)) return id;
  }
}

const tsMicros = (ts: string) => Number(ts.replace(".", ""));
const microsTs = (micros: number) => `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, "0")}`;

/**
 * A new message `ts`: the sandbox clock, but always after every ts the world has, so a channel's
 * timestamps are unique and increasing even for a seed dated in the future.
 */
export function newTs(db: Db, clock: Clock): string {
  const row = db.one<{ value: string }>("SELECT value FROM sl_meta WHERE key = 'last_ts'");
  const last = row ? Number(row.value) : 0;
  const micros = Math.max(clock.now() * 1000, last + 1);
  db.run("INSERT OR REPLACE INTO sl_meta (key, value) VALUES ('last_ts', ?)", String(micros));
  return microsTs(micros);
}

/** Records that `ts` exists, so later ones come after it. */
export function noteTs(db: Db, ts: string): void {
  const row = db.one<{ value: string }>("SELECT value FROM sl_meta WHERE key = 'last_ts'");
  const micros = tsMicros(ts);
  if (!row || Number(row.value) < micros) db.run("INSERT OR REPLACE INTO sl_meta (key, value) VALUES ('last_ts', ?)", String(micros));
}

export const nowSeconds = (clock: Clock) => Math.floor(clock.now() / 1000);

/** Whether a message shows in its channel's history: top level, a thread's parent, or a broadcast reply. */
export const inHistory = (m: { ts: string; thread_ts?: string | null; subtype?: string }) =>
  m.thread_ts === undefined || m.thread_ts === null || m.thread_ts === m.ts || m.subtype === "thread_broadcast";
