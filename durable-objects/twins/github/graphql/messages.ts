// GitHub's GraphQL API runs on graphql-ruby, whose words for a bad document differ from
// graphql-js's. The common ones are rewritten into GitHub's form (as its answers show them:
// `Parse error on "}" (RCURLY) at [1, 10]`, `Field 'x' doesn't exist on type 'Repository'`,
// `Field 'repository' is missing required arguments: name`, `Field 'issue' doesn't accept
// argument 'id'`, `Variable $owner of type String! was provided invalid value`); any other keeps
// graphql-js's message.
import type { GraphQLError } from "graphql";
import type { GithubErrorBody } from "./errors";

const PUNCTUATORS: Record<string, string> = {
  "{": "LCURLY",
  "}": "RCURLY",
  "(": "LPAREN",
  ")": "RPAREN",
  "[": "LBRACKET",
  "]": "RBRACKET",
  ":": "COLON",
  $: "VAR_SIGN",
  "!": "BANG",
  "=": "EQUALS",
  "@": "DIR_SIGN",
  "...": "ELLIPSIS",
  "|": "PIPE",
  "&": "AMP",
};

/** The token graphql-js stopped at, named as graphql-ruby's lexer names it. */
function tokenAt(source: string, line: number, column: number): { text: string; name: string } | undefined {
  const row = source.split(/\r\n|\r|\n/)[line - 1] ?? "";
  const rest = row.slice(column - 1);
  if (!rest) return undefined;
  if (rest.startsWith("...")) return { text: "...", name: "ELLIPSIS" };
  const punct = PUNCTUATORS[rest[0]];
  if (punct) return { text: rest[0], name: punct };
  const word = /^[_A-Za-z][_0-9A-Za-z]*/.exec(rest)?.[0];
  if (word) return { text: word, name: "IDENTIFIER" };
  const number = /^-?\d+(\.\d+)?/.exec(rest);
  if (number) return { text: number[0], name: number[1] ? "FLOAT" : "INT" };
  if (rest[0] === '"') return { text: rest.slice(0, 20), name: "STRING" };
  return { text: rest[0], name: "UNKNOWN_CHAR" };
}

export function parseErrorBody(source: string, e: GraphQLError): GithubErrorBody {
  const at = e.locations?.[0];
  if (!at) return { message: e.message };
  const token = tokenAt(source, at.line, at.column);
  const message = token
    ? `Parse error on ${JSON.stringify(token.text)} (${token.name}) at [${at.line}, ${at.column}]`
    : `Parse error on end of input at [${at.line}, ${at.column}]`;
  return { message, locations: [at] };
}

const RULES: [RegExp, (m: RegExpExecArray) => { message: string; extensions: Record<string, unknown> }][] = [
  [
    /^Cannot query field "(\w+)" on type "(\w+)"/,
    (m) => ({
      message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
      extensions: { code: "undefinedField", typeName: m[2], fieldName: m[1] },
    }),
  ],
  [
    /^Field "(\w+)" argument "(\w+)" of type "([^"]+)" is required, but it was not provided\./,
    (m) => ({
      message: `Field '${m[1]}' is missing required arguments: ${m[2]}`,
      extensions: { code: "missingRequiredArguments", className: "Field", name: m[1], arguments: m[2] },
    }),
  ],
  [
    /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"\./,
    (m) => ({
      message: `Field '${m[3]}' doesn't accept argument '${m[1]}'`,
      extensions: { code: "argumentNotAccepted", name: m[3], typeName: "Field", argumentName: m[1] },
    }),
  ],
  [
    /^Variable "\$(\w+)" of (?:required )?type "([^"]+)"/,
    (m) => ({
      message: `Variable $${m[1]} of type ${m[2]} was provided invalid value`,
      extensions: { value: null, problems: [] },
    }),
  ],
  [
    /^Variable "\$(\w+)" got invalid value [^;]*; (.*)$/,
    (m) => ({ message: `Variable $${m[1]} was provided invalid value: ${m[2]}`, extensions: { problems: [{ explanation: m[2] }] } }),
  ],
];

/** A validation or variable error in GitHub's words, where graphql-ruby's differ. */
export function validationErrorBody(e: GraphQLError): GithubErrorBody {
  for (const [pattern, rewrite] of RULES) {
    const m = pattern.exec(e.message);
    if (m) return { ...rewrite(m), ...(e.locations ? { locations: e.locations } : {}) };
  }
  return { message: e.message, ...(e.locations ? { locations: e.locations } : {}) };
}
