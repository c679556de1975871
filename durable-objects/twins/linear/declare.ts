// How the Linear twin reads its routes' inputs (kit/route.ts), bound once for each of its two
// dialects: /graphql takes a JSON GraphQL request and refuses in GraphQL's error shape, with the
// caller checked and metered first; the OAuth endpoints take form (or JSON) fields and refuse in
// OAuth's.
import { routeKit } from "../kit/route";
import { refuse as answerEarly } from "../kit/response";
import { noQueryString, notJson, rawBody, refusedBody } from "./graphql";
import { oauthError, oauthFields } from "./oauth";

export const graphqlRoute = routeKit({
  bodyEncoding: "json",
  // Read once per request (the tape's operation reads it before the handler runs); a body nested
  // too deep is refused before it is parsed, and any content type is read as JSON, as Linear does.
  readBody(ctx) {
    const body = rawBody(ctx.req);
    return "json" in body ? body.json : answerEarly(refusedBody(ctx, body.refused));
  },
  // GRAPHQL_BODY can refuse one thing only: a body that is not an object with a query string.
  refuse: (_problem, ctx) => refusedBody(ctx, noQueryString()),
  unparsable: (ctx) => refusedBody(ctx, notJson()),
});

export const oauthRoute = routeKit({
  bodyEncoding: "form",
  readBody: oauthFields,
  // Every OAuth input is an optional string (oauth.ts), so none is refused here: the handler
  // refuses what is missing or wrong in OAuth's words. RFC 6749's answer to a malformed request
  // stands behind it all the same.
  refuse: (problem) => oauthError(400, "invalid_request", `${[problem.place, ...problem.path.map(String)].join(".")} is malformed`),
  unparsable: () => oauthError(400, "invalid_request", "The request body could not be read"),
});
