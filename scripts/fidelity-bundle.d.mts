// Types only: generate.ts reaches the registry, which needs the Workers types.
import type { TwinFidelity } from "../durable-objects/twins/kit/fidelity/declaration";
import type { FidelityReport } from "../durable-objects/twins/kit/fidelity/types";

/** The twin folders that declare their fidelity, sorted (see fidelity-bundle.mjs). */
export function fidelityFolders(root: string): string[];
/** Each folder's `fidelity` declaration by folder name and, when asked for, the kit's table writer. */
export function loadFidelity(
  root: string,
  options?: { generator?: boolean },
): Promise<{
  declarations: Record<string, TwinFidelity>;
  generateFidelity?(
    root: string,
    declarations: Record<string, TwinFidelity>,
  ): { files: { path: string; content: string }[]; reports: FidelityReport[] };
}>;
