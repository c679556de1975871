/** One line of server output with every token-like word redacted (see redacting-output.mjs). */
export function redactLogLine(line: string): string;
