// Parses and renders the task markdown file. Pure, and free of runtime imports on purpose: the
// `pome` CLI loads this very file with Node's type stripping, so the CLI and the control plane
// read a task the same way. Keep every import here `import type`.
import type { CriterionKind, Task, TaskConfig, TaskCriterion, TaskError, TaskParseResult, TaskSection, TaskSeed } from "./types";

/** The canonical headings of the known sections. Matching ignores case and spacing. */
export const SECTION_HEADINGS = {
  config: "Config",
  prompt: "Prompt",
  seed: "Seed State",
  criteria: "Success Criteria",
} as const;
type KnownKind = keyof typeof SECTION_HEADINGS;

export const CONFIG_KEYS = ["twins", "runs", "passThreshold", "passScore", "reference", "naive"] as const;
// A task that names no twins gets the platform's default ones. This file cannot know them (the
// CLI loads it without the registry), so every caller passes them in: the control plane from the
// registry (workers/tasks/index.ts), the CLI from `GET /v1/twins`.
const MAX_TWINS = 3;
const MAX_RUNS = 50;
/** An oracle command (`reference:`, `naive:`) is one line a person can read. */
const MAX_ORACLE_COMMAND = 500;
const TWIN_ID = /^[a-z][a-z0-9-]*$/;

interface RawSection {
  heading: string;
  /** 1-based line of the `## ` heading. */
  line: number;
  body: string[];
}

// ---------------------------------------------------------------------------------------------
// Splitting the file into its title, intro and `## ` sections.

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Splits on `## ` headings, ignoring any that sit inside a fenced code block. */
function splitSections(markdown: string): { head: string[]; sections: RawSection[] } {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const head: string[] = [];
  const sections: RawSection[] = [];
  let fence: string | undefined;
  lines.forEach((text, index) => {
    const fenceMatch = FENCE.exec(text);
    if (fenceMatch) {
      const marker = fenceMatch[1];
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && !fenceMatch[2].trim()) fence = undefined;
    }
    const heading = fence === undefined ? /^##\s+(.+?)(?:\s+#+)?\s*$/.exec(text) : null;
    if (heading) {
      sections.push({ heading: heading[1], line: index + 1, body: [] });
      return;
    }
    const current = sections[sections.length - 1];
    if (current) current.body.push(text);
    else head.push(text);
  });
  return { head, sections };
}

/** Drops blank lines at both ends, returning the first kept line's offset. */
function trimBlankLines(lines: string[]): { lines: string[]; offset: number } {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start].trim()) start++;
  while (end > start && !lines[end - 1].trim()) end--;
  return { lines: lines.slice(start, end), offset: start };
}

const normalizeHeading = (heading: string) => heading.trim().replace(/\s+/g, " ").toLowerCase();

function knownKind(heading: string): KnownKind | undefined {
  const wanted = normalizeHeading(heading);
  return (Object.keys(SECTION_HEADINGS) as KnownKind[]).find((kind) => normalizeHeading(SECTION_HEADINGS[kind]) === wanted);
}

// ---------------------------------------------------------------------------------------------
// Section bodies.

type Collect = (error: TaskError) => void;

function parseTwins(value: string, defaultTwins: readonly string[]): string[] | string {
  const example = defaultTwins[0] ?? "<twin>";
  const inner = /^\[(.*)\]$/.exec(value);
  const items = (inner ? inner[1] : value)
    .split(",")
    .map((item) => item.trim().replace(/^["']|["']$/g, ""))
    .filter(Boolean);
  if (!items.length) return `twins must name at least one twin, e.g. \`twins: [${example}]\``;
  if (items.length > MAX_TWINS) return `twins names ${items.length} twins; a sandbox holds at most ${MAX_TWINS}`;
  const bad = items.find((item) => !TWIN_ID.test(item));
  if (bad !== undefined) return `twins: "${bad}" is not a twin id (lower-case, e.g. ${example})`;
  const repeated = items.find((item, i) => items.indexOf(item) !== i);
  if (repeated !== undefined) return `twins names "${repeated}" twice`;
  return items;
}

/** `80%`, `80` and `0.8` all mean eighty per cent. */
function parsePercent(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(value);
  if (!match) return undefined;
  let n = Number(match[1]);
  if (!match[2] && match[1].includes(".") && n < 1) n = Math.round(n * 10000) / 100;
  return n >= 0 && n <= 100 ? n : undefined;
}

function parseConfig(body: string[], firstLine: number, collect: Collect, defaultTwins: readonly string[]): TaskConfig {
  const config: TaskConfig = { twins: [...defaultTwins] };
  const seen = new Set<string>();
  body.forEach((text, i) => {
    const line = firstLine + i;
    if (!text.trim()) return;
    const fail = (message: string) => collect({ message, line, section: SECTION_HEADINGS.config });
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$/.exec(text);
    if (!match) return fail(`Config line "${text.trim()}" is not \`key: value\``);
    const [, key, value] = match;
    if (!(CONFIG_KEYS as readonly string[]).includes(key))
      return fail(`Config key "${key}" is not known; the keys are ${CONFIG_KEYS.join(", ")}`);
    if (seen.has(key)) return fail(`Config key "${key}" is given twice`);
    seen.add(key);
    if (key === "twins") {
      const twins = parseTwins(value, defaultTwins);
      if (typeof twins === "string") fail(twins);
      else config.twins = twins;
    } else if (key === "runs") {
      const runs = Number(value);
      if (!/^\d+$/.test(value) || runs < 1 || runs > MAX_RUNS) fail(`runs must be a whole number from 1 to ${MAX_RUNS}, not "${value}"`);
      else config.runs = runs;
    } else if (key === "reference" || key === "naive") {
      if (!value || value.length > MAX_ORACLE_COMMAND)
        fail(`${key} must be the command of an agent (e.g. node ../agents/task.mjs), at most ${MAX_ORACLE_COMMAND} characters`);
      else config[key] = value;
    } else {
      const percent = parsePercent(value);
      if (percent === undefined) fail(`${key} must be a percentage from 0 to 100 (e.g. 80%), not "${value}"`);
      else if (key === "passThreshold") config.passThreshold = percent;
      else config.passScore = percent;
    }
  });
  return config;
}

/**
 * A JSON.parse error placed in the task file: V8 names a character offset (and, in newer
 * versions, a line and column counted inside the JSON block), which mean nothing to someone
 * reading the file, so the offset becomes the file's own line and column.
 */
export function jsonErrorInFile(err: unknown, json: string, jsonFirstLine: number): { message: string; line: number } {
  const raw = (err instanceof Error ? err.message : String(err)).replace(/\s*\(line \d+ column \d+\)/, "");
  const position = /at position (\d+)/.exec(raw);
  if (!position) return { message: raw, line: jsonFirstLine };
  const before = json.slice(0, Number(position[1]));
  const line = jsonFirstLine + (before.match(/\n/g)?.length ?? 0);
  const column = before.length - before.lastIndexOf("\n");
  return { message: `${raw.replace(/ in JSON at position \d+/, "")} at column ${column}`, line };
}

function parseSeed(body: string[], firstLine: number, collect: Collect): TaskSeed | undefined {
  const fail = (message: string, line = firstLine) => {
    collect({ message, line, section: SECTION_HEADINGS.seed });
    return undefined;
  };
  const open = body.length ? FENCE.exec(body[0]) : null;
  if (!open || !/^\s*(json)?\s*$/i.test(open[2]))
    return fail(`Seed State must be one fenced \`\`\`json block keyed by twin, e.g. {"<twin>": {...}}`);
  const close = body.length > 1 ? FENCE.exec(body[body.length - 1]) : null;
  if (!close || close[1][0] !== open[1][0] || close[2].trim())
    return fail("Seed State's ```json block is not closed, or text follows it", firstLine + body.length - 1);
  let value: unknown;
  const json = body.slice(1, -1).join("\n");
  try {
    value = JSON.parse(json);
  } catch (err) {
    const { message, line } = jsonErrorInFile(err, json, firstLine + 1);
    return fail(`Seed State is not valid JSON: ${message}`, line);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return fail(`Seed State must be a JSON object keyed by twin, e.g. {"<twin>": {...}}`, firstLine + 1);
  return value as TaskSeed;
}

/**
 * The criteria limits, checked here and only here: every door a task comes in by (POST /v1/tasks,
 * POST /v1/sandboxes, `pome validate`, finalize) reads them from this parser or these constants.
 */
export const CRITERIA_LIMIT = 200;
export const CRITERION_TEXT_LIMIT = 4000;

/** Errors for criteria over the limits; `at` names a criterion for the message. */
export function criteriaLimitErrors(
  criteria: readonly { text: string }[],
  at: (index: number) => Pick<TaskError, "line" | "section">,
): TaskError[] {
  const errors: TaskError[] = [];
  if (criteria.length > CRITERIA_LIMIT)
    errors.push({
      ...at(CRITERIA_LIMIT),
      message: `The task has ${criteria.length} criteria; a run takes at most ${CRITERIA_LIMIT}`,
      limit: true,
    });
  criteria.forEach((c, i) => {
    if (c.text.length > CRITERION_TEXT_LIMIT)
      errors.push({
        ...at(i),
        message: `Criterion ${i + 1} is ${c.text.length} characters long; a criterion takes at most ${CRITERION_TEXT_LIMIT}`,
        limit: true,
      });
  });
  return errors;
}

const CRITERION = /^[-*]\s+\[(code|model)((?:\s+[^\]\s]+)*)\s*\]\s*(.*)$/;

function parseCriteria(body: string[], firstLine: number, collect: Collect): TaskCriterion[] {
  const criteria: TaskCriterion[] = [];
  const lines: number[] = [];
  body.forEach((text, i) => {
    if (!text.trim()) return;
    const fail = (message: string) => collect({ message, line: firstLine + i, section: SECTION_HEADINGS.criteria });
    const match = CRITERION.exec(text.trim());
    if (!match) return fail(`"${text.trim()}" is not a criterion; write \`- [code] …\` or \`- [model] …\``);
    const [, kind, attributes, sentence] = match;
    if (!sentence.trim()) return fail(`The [${kind}] criterion has no sentence`);
    const criterion: TaskCriterion = { kind: kind as CriterionKind, text: sentence.trim() };
    for (const attribute of attributes.split(/\s+/).filter(Boolean)) {
      const twin = /^twin=(.+)$/.exec(attribute);
      if (twin && TWIN_ID.test(twin[1]) && criterion.twin === undefined) criterion.twin = twin[1];
      else if (attribute === "always_scored" && !criterion.alwaysScored) criterion.alwaysScored = true;
      else return fail(`Unknown criterion attribute "${attribute}"; use twin=<twin> or always_scored`);
    }
    criteria.push(criterion);
    lines.push(firstLine + i);
  });
  for (const e of criteriaLimitErrors(criteria, (i) => ({ line: lines[i], section: SECTION_HEADINGS.criteria }))) collect(e);
  return criteria;
}

// ---------------------------------------------------------------------------------------------
// The whole file.

/** Whether the file's `## Config` names its twins, so a caller knows if the defaults matter at all. */
export function namesTwins(markdown: string): boolean {
  const config = splitSections(markdown).sections.find((s) => knownKind(s.heading) === "config");
  return config?.body.some((line) => /^\s*twins\s*:/.test(line)) === true;
}

export function parseTask(markdown: string, defaultTwins: readonly string[]): TaskParseResult {
  const errors: TaskError[] = [];
  const collect: Collect = (error) => errors.push(error);
  const { head, sections: raw } = splitSections(markdown);

  const task: Task = { config: { twins: [...defaultTwins] }, prompt: "", criteria: [], sections: [] };
  const headLines = trimBlankLines(head).lines;
  const title = headLines.length ? /^#\s+(.+?)\s*$/.exec(headLines[0]) : null;
  if (title) task.name = title[1];
  const intro = trimBlankLines(title ? headLines.slice(1) : headLines).lines;
  if (intro.length) task.intro = intro.join("\n");

  const seenKinds = new Set<KnownKind>();
  for (const section of raw) {
    const { lines: body, offset } = trimBlankLines(section.body);
    const firstLine = section.line + 1 + offset;
    const kind = knownKind(section.heading);
    if (!kind) {
      task.sections.push({ kind: "other", heading: section.heading, body: body.join("\n") });
      continue;
    }
    if (seenKinds.has(kind)) {
      collect({ message: `The "${SECTION_HEADINGS[kind]}" section appears twice`, line: section.line, section: SECTION_HEADINGS[kind] });
      continue;
    }
    seenKinds.add(kind);
    task.sections.push({ kind });
    if (kind === "config") task.config = parseConfig(body, firstLine, collect, defaultTwins);
    else if (kind === "prompt") task.prompt = body.join("\n");
    else if (kind === "criteria") task.criteria = parseCriteria(body, firstLine, collect);
    else {
      const seed = parseSeed(body, firstLine, collect);
      if (seed) task.seed = seed;
    }
  }
  errors.push(...crossCheck(task));
  return errors.length ? { ok: false, errors } : { ok: true, task };
}

/** Twins named by the seed or the criteria must be twins of the task. */
function crossCheck(task: Task): TaskError[] {
  const errors: TaskError[] = [];
  const twins = task.config.twins;
  const list = twins.join(", ");
  for (const key of Object.keys(task.seed ?? {})) {
    if (!twins.includes(key))
      errors.push({
        section: SECTION_HEADINGS.seed,
        message: `Seed State key "${key}" is not one of the task's twins (${list}); the block is keyed by twin, e.g. {"${twins[0]}": {...}}`,
      });
  }
  for (const criterion of task.criteria) {
    if (criterion.twin !== undefined && !twins.includes(criterion.twin))
      errors.push({
        section: SECTION_HEADINGS.criteria,
        message: `Criterion "${criterion.text}" names twin "${criterion.twin}", which is not one of the task's twins (${list})`,
      });
  }
  return errors;
}

/** What a parsed task still lacks before it can be stored or run. */
export function missingForRun(task: Task): TaskError[] {
  const errors: TaskError[] = [];
  if (!task.prompt.trim())
    errors.push({ section: SECTION_HEADINGS.prompt, message: "The task has no `## Prompt`: the examinee would be told nothing" });
  if (!task.criteria.length)
    errors.push({
      section: SECTION_HEADINGS.criteria,
      message: "The task has no `## Success Criteria`: a run with nothing to check is never graded",
    });
  return errors;
}

/** Reads only the `## Seed State` block, so a seed is found even in a task still being written. */
export function readSeedState(markdown: string): { seed?: TaskSeed; errors: TaskError[] } {
  const errors: TaskError[] = [];
  const section = splitSections(markdown).sections.find((s) => knownKind(s.heading) === "seed");
  if (!section) return { errors };
  const { lines, offset } = trimBlankLines(section.body);
  const seed = parseSeed(lines, section.line + 1 + offset, (e) => errors.push(e));
  return seed ? { seed, errors } : { errors };
}

// ---------------------------------------------------------------------------------------------
// Rendering. A parsed file renders back byte for byte when it is written the canonical way:
// sections separated by one blank line, config keys in CONFIG_KEYS order, the seed as
// two-space-indented JSON, criteria one per line.

export function renderConfigBody(config: TaskConfig): string {
  const lines = [`twins: [${config.twins.join(", ")}]`];
  if (config.runs !== undefined) lines.push(`runs: ${config.runs}`);
  if (config.passThreshold !== undefined) lines.push(`passThreshold: ${config.passThreshold}%`);
  if (config.passScore !== undefined) lines.push(`passScore: ${config.passScore}%`);
  if (config.reference !== undefined) lines.push(`reference: ${config.reference}`);
  if (config.naive !== undefined) lines.push(`naive: ${config.naive}`);
  return lines.join("\n");
}

export function renderSeedBody(seed: TaskSeed): string {
  return ["```json", JSON.stringify(seed, null, 2), "```"].join("\n");
}

export function renderCriterionLine(criterion: TaskCriterion): string {
  const tags: string[] = [criterion.kind];
  if (criterion.twin !== undefined) tags.push(`twin=${criterion.twin}`);
  if (criterion.alwaysScored) tags.push("always_scored");
  return `- [${tags.join(" ")}] ${criterion.text}`;
}

/** The `## Success Criteria` section, heading included, for appending to a task source. */
export function renderCriteriaSection(criteria: readonly TaskCriterion[]): string {
  return [`## ${SECTION_HEADINGS.criteria}`, ...criteria.map(renderCriterionLine)].join("\n") + "\n";
}

function sectionText(task: Task, section: TaskSection): string {
  if (section.kind === "other") return section.body ? `## ${section.heading}\n${section.body}` : `## ${section.heading}`;
  const body =
    section.kind === "config"
      ? renderConfigBody(task.config)
      : section.kind === "prompt"
        ? task.prompt
        : section.kind === "seed"
          ? task.seed
            ? renderSeedBody(task.seed)
            : ""
          : task.criteria.map(renderCriterionLine).join("\n");
  return body ? `## ${SECTION_HEADINGS[section.kind]}\n${body}` : `## ${SECTION_HEADINGS[section.kind]}`;
}

/** Known sections a task carries content for but does not place, in canonical order. */
function unplacedSections(task: Task, defaultTwins: readonly string[]): TaskSection[] {
  const placed = new Set(task.sections.map((s) => s.kind));
  const wanted: Array<[KnownKind, boolean]> = [
    ["config", task.config.twins.join() !== defaultTwins.join() || Object.keys(task.config).length > 1],
    ["prompt", task.prompt !== ""],
    ["seed", task.seed !== undefined],
    ["criteria", task.criteria.length > 0],
  ];
  return wanted.filter(([kind, has]) => has && !placed.has(kind)).map(([kind]) => ({ kind }) as TaskSection);
}

export function renderTask(task: Task, defaultTwins: readonly string[]): string {
  const parts: string[] = [];
  if (task.name !== undefined) parts.push(`# ${task.name}`);
  if (task.intro) parts.push(task.intro);
  for (const section of [...task.sections, ...unplacedSections(task, defaultTwins)]) parts.push(sectionText(task, section));
  return parts.length ? parts.join("\n\n") + "\n" : "";
}
