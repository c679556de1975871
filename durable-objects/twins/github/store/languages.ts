// Which language a file is in, by its name, as GitHub's Linguist names languages (a small subset:
// the languages of the files a task's world holds). Search uses it for `language:` and `extension:`;
// a language name is matched case-insensitively, through Linguist's common aliases.

/** File endings (lower case, with the dot, or a whole file name) to Linguist's language name. */
export const LANGUAGE_BY_ENDING: Readonly<Record<string, string>> = {
  ".ts": "TypeScript",
  ".tsx": "TSX",
  ".mts": "TypeScript",
  ".cts": "TypeScript",
  ".js": "JavaScript",
  ".mjs": "JavaScript",
  ".cjs": "JavaScript",
  ".jsx": "JavaScript",
  ".py": "Python",
  ".go": "Go",
  ".rs": "Rust",
  ".java": "Java",
  ".kt": "Kotlin",
  ".swift": "Swift",
  ".rb": "Ruby",
  ".php": "PHP",
  ".c": "C",
  ".h": "C",
  ".cc": "C++",
  ".cpp": "C++",
  ".hpp": "C++",
  ".cs": "C#",
  ".sh": "Shell",
  ".bash": "Shell",
  ".md": "Markdown",
  ".json": "JSON",
  ".yml": "YAML",
  ".yaml": "YAML",
  ".toml": "TOML",
  ".html": "HTML",
  ".css": "CSS",
  ".scss": "SCSS",
  ".sql": "SQL",
  ".ex": "Elixir",
  ".exs": "Elixir",
  ".scala": "Scala",
  ".lua": "Lua",
  dockerfile: "Dockerfile",
  makefile: "Makefile",
};

/** Linguist aliases a query may use for a language (`language:js`, `language:cpp`). */
const ALIASES: Readonly<Record<string, string>> = {
  js: "JavaScript",
  node: "JavaScript",
  ts: "TypeScript",
  py: "Python",
  golang: "Go",
  rb: "Ruby",
  cpp: "C++",
  csharp: "C#",
  "c-sharp": "C#",
  sh: "Shell",
  bash: "Shell",
  shell: "Shell",
  yml: "YAML",
  rs: "Rust",
  md: "Markdown",
};

const NAMES = new Map(Object.values(LANGUAGE_BY_ENDING).map((name) => [name.toLowerCase(), name]));

/** The language a query names, as Linguist spells it; unknown names are kept (they match nothing). */
export function languageNamed(value: string): string {
  const lower = value.toLowerCase();
  return ALIASES[lower] ?? NAMES.get(lower) ?? value;
}

/** The language of a file by its path, or null when Linguist's subset here does not know it. */
export function languageOf(path: string): string | null {
  const name = (path.split("/").pop() ?? path).toLowerCase();
  if (LANGUAGE_BY_ENDING[name]) return LANGUAGE_BY_ENDING[name];
  const dot = name.lastIndexOf(".");
  return dot > 0 ? (LANGUAGE_BY_ENDING[name.slice(dot)] ?? null) : null;
}

/**
 * SQL: the language of the file at `pathExpr`, through the ending map passed as a JSON parameter
 * (`LANGUAGE_JSON`): an ending, then a whole file name. Only the map is SQL text; paths stay data.
 */
export const languageSql = (pathExpr: string) =>
  `(SELECT m.value FROM json_each(?) m WHERE (substr(m.key, 1, 1) = '.' AND substr(lower(${pathExpr}), -length(m.key)) = m.key) OR lower(${pathExpr}) = m.key OR substr(lower(${pathExpr}), -length(m.key) - 1) = '/' || m.key LIMIT 1)`;

export const LANGUAGE_JSON = JSON.stringify(LANGUAGE_BY_ENDING);
