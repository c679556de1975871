// `pome validate --offline` binds against the vocabulary the CLI ships (cli/vocabulary.json) when
// it has fetched none: that file must be the registry's own vocabulary, or offline binding would
// call a typo valid (or a good sentence unbound). When a twin's checks change, regenerate it: for
// each twin, GET /v1/checks?twin=<twin> and keep each check's id, template and params
// ({ "<twin>": [{ id, template, params: [{ name, pattern, example }] }] }).
import { describe, expect, it } from "vitest";
import shipped from "../../../cli/vocabulary.json";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";

describe("the vocabulary the CLI ships is the registry's", () => {
  it.each(TWIN_IDS)("%s", (twin) => {
    const expected = twinById(twin).checks.map((c) => ({
      id: c.id,
      template: c.template,
      params: c.params.map((p) => ({ name: p.name, pattern: p.pattern, example: p.example, ...(p.subject ? { subject: p.subject } : {}) })),
    }));
    expect((shipped as Record<string, unknown>)[twin]).toEqual(expected);
  });
});
