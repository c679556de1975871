// The `twins` columns (sandboxes, runs, tasks, agents) hold a JSON array of twin ids. This column
// type reads it once, checked: a row whose list is not one no longer parses into a TwinId[] by a
// cast in eight places, it fails here, naming the column.
import { customType } from "drizzle-orm/sqlite-core";
import { isTwinId } from "../../durable-objects/twins/registry";
import type { TwinId } from "../../durable-objects/twins/registry";

export function parseTwinList(text: string): TwinId[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every(isTwinId))
    throw new Error(`a stored twins column is not a list of twin ids: ${text.slice(0, 100)}`);
  return value;
}

export const twinList = customType<{ data: TwinId[]; driverData: string }>({
  dataType: () => "text",
  toDriver: (twins) => JSON.stringify(twins),
  fromDriver: parseTwinList,
});
