// Reading a stored task for `task_id` sandboxes.
import { notFound } from "./errors";

export async function loadStoredTask(env: Env, teamId: string, taskId: string): Promise<{ id: string; markdown: string }> {
  const row = await env.DB.prepare("SELECT id, markdown FROM tasks WHERE id = ? AND team_id = ?")
    .bind(taskId, teamId)
    .first<{ id: string; markdown: string }>()
    .catch(() => null);
  if (!row) throw notFound("Task");
  return row;
}
