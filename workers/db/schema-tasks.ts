// drizzle schema for d1-migrations/0003_tasks_agents.sql (the SQL file is the source of truth).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { twinList } from "./twin-list";

export const tasks = sqliteTable("tasks", {
  id: text("id").primaryKey(),
  teamId: text("team_id").notNull(),
  name: text("name"),
  markdown: text("markdown").notNull(),
  /** JSON array of twin ids, primary first. */
  twins: twinList("twins").notNull(),
  criteriaCount: integer("criteria_count").notNull(),
  contentHash: text("content_hash").notNull(),
  createdAt: text("created_at").notNull(),
});

export const agents = sqliteTable("agents", {
  id: text("id").primaryKey(),
  teamId: text("team_id").notNull(),
  name: text("name").notNull(),
  /** JSON array of the twins this agent may be run against. */
  twins: twinList("twins").notNull(),
  version: text("version"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export type TaskRow = typeof tasks.$inferSelect;
export type AgentRow = typeof agents.$inferSelect;
