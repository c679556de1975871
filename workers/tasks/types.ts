// The task file as data. A task is one markdown file: a title, `## Config`, `## Prompt`,
// `## Seed State` (a JSON block keyed by twin) and `## Success Criteria`; any other section is
// kept verbatim so a file survives a parse and a render unchanged.

export type CriterionKind = "code" | "model";

export interface TaskCriterion {
  kind: CriterionKind;
  /** The sentence: for `code`, it must bind to a check of the criterion's twin. */
  text: string;
  /** The twin a `code` criterion is graded against; absent means the task's first twin. */
  twin?: string;
  /** Grade it even when the seed already satisfies it (the point of an inverse task). */
  alwaysScored?: boolean;
}

export interface TaskConfig {
  /** One to three twin ids; the first is the primary twin. Defaults to the registry's default twin. */
  twins: string[];
  /** How many trials `pome run` starts when `--runs` is not given. */
  runs?: number;
  /** Percentage (0–100) of trials that must pass for the task to pass. Default 100. */
  passThreshold?: number;
  /** Minimum score (0–100) for one trial to count as passed. Default 100. */
  passScore?: number;
  /**
   * Oracle pair (issue 38): the command of a reference agent that must pass the task, and of a
   * naive one that must fail it; `pome validate --oracle` runs both. Run from the task file's folder.
   */
  reference?: string;
  naive?: string;
}

/** The seed file's world: one entry per twin, even for a one-twin task. */
export type TaskSeed = Record<string, unknown>;

/** Where each section sits in the file. Known sections are markers; others keep their text. */
export type TaskSection =
  | { kind: "config" }
  | { kind: "prompt" }
  | { kind: "seed" }
  | { kind: "criteria" }
  | { kind: "other"; heading: string; body: string };

export interface Task {
  /** The `# Title` line, which names the task's runs. */
  name?: string;
  /** Prose between the title and the first section. */
  intro?: string;
  config: TaskConfig;
  prompt: string;
  seed?: TaskSeed;
  criteria: TaskCriterion[];
  sections: TaskSection[];
}

export interface TaskError {
  message: string;
  /** 1-based line in the file, when one line is at fault. */
  line?: number;
  /** The section heading, when the fault is inside one. */
  section?: string;
  /** A limit finalize would refuse the task for: refused up front wherever a task enters. */
  limit?: true;
}

export type TaskParseResult = { ok: true; task: Task } | { ok: false; errors: TaskError[] };

/** The seed a sandbox request carries, worked out from a task's Seed State. */
export interface TaskSeedForRequest {
  /** False when the task seeds none of the requested twins (they boot their default worlds). */
  found: boolean;
  seed?: unknown;
  error?: string;
}
