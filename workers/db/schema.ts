// drizzle schema for d1-migrations/0001_init.sql (the SQL files are the source of truth).
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { twinList } from "./twin-list";

export const teams = sqliteTable("teams", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull(),
  name: text("name").notNull(),
  planTier: text("plan_tier").notNull(),
  sessionsQuota: integer("sessions_quota").notNull(),
  createdAt: text("created_at").notNull(),
});

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  teamId: text("team_id").notNull(),
  email: text("email").notNull(),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  keyHash: text("key_hash").notNull(),
  teamId: text("team_id").notNull(),
  userId: text("user_id").notNull(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  revokedAt: text("revoked_at"),
});

export const sandboxes = sqliteTable("sandboxes", {
  id: text("id").primaryKey(),
  teamId: text("team_id").notNull(),
  twins: twinList("twins").notNull(),
  state: text("state").notNull(),
  taskName: text("task_name"),
  taskMarkdown: text("task_markdown"),
  taskId: text("task_id"),
  groupId: text("group_id"),
  agentVersion: text("agent_version"),
  agentId: text("agent_id"),
  baselineGroupId: text("baseline_group_id"),
  idempotencyKey: text("idempotency_key"),
  /** sha256 of the create body the key was first used with (0005_idempotency_hash.sql). */
  idempotencyHash: text("idempotency_hash"),
  createdAt: text("created_at").notNull(),
  readyAt: text("ready_at"),
  expiresAt: text("expires_at").notNull(),
  closedAt: text("closed_at"),
  /** Why it closed, from its Durable Object: finalized, lifetime, idle, discarded (0007_sandbox_close_reason.sql). */
  closeReason: text("close_reason"),
});

export type SandboxRow = typeof sandboxes.$inferSelect;
