// The mailbox's own values (address, history counter, id counters, settings) in gm_meta.
import type { Db } from "../../types";
import { nextCounter } from "../../kit/sql";
import { FIRST_GENERATED_ID, hexId } from "../ids";

export function getMeta(db: Db, key: string): string | undefined {
  return db.one<{ value: string }>("SELECT value FROM gm_meta WHERE key = ?", key)?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.run("INSERT OR REPLACE INTO gm_meta (key, value) VALUES (?, ?)", key, value);
}

export function getJson<T>(db: Db, key: string, fallback: T): T {
  const value = getMeta(db, key);
  return value === undefined ? fallback : (JSON.parse(value) as T);
}

export const setJson = (db: Db, key: string, value: unknown) => setMeta(db, key, JSON.stringify(value));

export const mailboxAddress = (db: Db): string => getMeta(db, "email_address") ?? "";

/** The mailbox's own addresses: its address and its send-as aliases (what search's `me` names). */
export function mailboxAddresses(db: Db): string[] {
  const aliases = getJson<{ sendAsEmail: string }[]>(db, "send_as", []).map((s) => s.sendAsEmail);
  return [...new Set([mailboxAddress(db), ...aliases].map((a) => a.toLowerCase()).filter((a) => a !== ""))];
}

export const currentHistoryId = (db: Db): number => Number(getMeta(db, "history_id") ?? "1");

/** Every change to the mailbox moves its historyId on by one. */
export function bumpHistory(db: Db): number {
  const next = currentHistoryId(db) + 1;
  setMeta(db, "history_id", String(next));
  return next;
}

export function nextMessageId(db: Db): string {
  const next = BigInt(`0x${getMeta(db, "next_message_id") ?? hexId(FIRST_GENERATED_ID)}`);
  setMeta(db, "next_message_id", hexId(next + 1n));
  return hexId(next);
}

export const nextCount = (db: Db, key: string, start: number): number => nextCounter(db, "gm_meta", key, start);

/** Kept totals, so getProfile costs the same in a mailbox of any size. */
export function addToTotal(db: Db, key: "messages_total" | "threads_total", delta: number): void {
  setMeta(db, key, String(Number(getMeta(db, key) ?? "0") + delta));
}
