// The twin's GraphQL schema is a part of GitHub's: every type, field, argument, input field, enum
// value and union member it declares exists in GitHub's public schema (@octokit/graphql-schema,
// MIT) with the same type, nullability and default, and nothing GitHub requires is left out.
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  buildSchema,
  type GraphQLNamedType,
} from "graphql";
import { describe, expect, it } from "vitest";
import githubSdl from "../../../node_modules/@octokit/graphql-schema/schema.graphql?raw";
import { githubSchema } from "../../../durable-objects/twins/github/graphql/schema";

// GitHub's published schema declares a few fields twice; graphql-js builds it once told not to check.
const github = buildSchema(githubSdl, { assumeValidSDL: true });
const twin = githubSchema();
const declared = Object.values(twin.getTypeMap()).filter((t) => !t.name.startsWith("__"));

const kindOf = (t: GraphQLNamedType) => t.constructor.name;

describe("the twin's GraphQL schema is a subset of GitHub's", () => {
  it("declares only types GitHub has, of the same kind", () => {
    for (const type of declared) {
      const theirs = github.getType(type.name);
      expect(theirs, type.name).toBeDefined();
      if (theirs) expect(kindOf(theirs), type.name).toBe(kindOf(type));
    }
    expect(declared.length).toBeGreaterThan(90);
  });

  it("gives every field GitHub's type and every argument GitHub's type and default", () => {
    let fields = 0;
    for (const type of declared) {
      if (!(type instanceof GraphQLObjectType || type instanceof GraphQLInterfaceType)) continue;
      const theirs = github.getType(type.name) as GraphQLObjectType | GraphQLInterfaceType;
      const theirFields = theirs.getFields();
      for (const field of Object.values(type.getFields())) {
        const where = `${type.name}.${field.name}`;
        const match = theirFields[field.name];
        expect(match, where).toBeDefined();
        if (!match) continue;
        fields++;
        expect(String(field.type), where).toBe(String(match.type));
        for (const arg of field.args) {
          const their = match.args.find((a) => a.name === arg.name);
          expect(their, `${where}(${arg.name})`).toBeDefined();
          expect(String(arg.type), `${where}(${arg.name})`).toBe(String(their?.type));
          expect(arg.defaultValue, `${where}(${arg.name}) default`).toEqual(their?.defaultValue);
        }
        for (const their of match.args)
          if (their.type instanceof GraphQLNonNull && their.defaultValue === undefined)
            expect(
              field.args.some((a) => a.name === their.name),
              `${where} requires ${their.name}`,
            ).toBe(true);
      }
      for (const i of type.getInterfaces())
        expect(
          theirs.getInterfaces().map((x) => x.name),
          `${type.name} implements ${i.name}`,
        ).toContain(i.name);
    }
    expect(fields).toBeGreaterThan(300);
  });

  it("gives every input field GitHub's type and default, and keeps every one GitHub requires", () => {
    for (const type of declared) {
      if (!(type instanceof GraphQLInputObjectType)) continue;
      const theirs = (github.getType(type.name) as GraphQLInputObjectType).getFields();
      for (const field of Object.values(type.getFields())) {
        const where = `${type.name}.${field.name}`;
        expect(theirs[field.name], where).toBeDefined();
        expect(String(field.type), where).toBe(String(theirs[field.name]?.type));
        expect(field.defaultValue, `${where} default`).toEqual(theirs[field.name]?.defaultValue);
      }
      for (const their of Object.values(theirs))
        if (their.type instanceof GraphQLNonNull && their.defaultValue === undefined)
          expect(type.getFields()[their.name], `${type.name} requires ${their.name}`).toBeDefined();
    }
  });

  it("copies enums whole and keeps union members GitHub's", () => {
    for (const type of declared) {
      if (type instanceof GraphQLEnumType)
        expect(
          type.getValues().map((v) => v.name),
          type.name,
        ).toEqual((github.getType(type.name) as GraphQLEnumType).getValues().map((v) => v.name));
      if (type instanceof GraphQLUnionType) {
        const theirs = (github.getType(type.name) as GraphQLUnionType).getTypes().map((t) => t.name);
        for (const member of type.getTypes()) expect(theirs, type.name).toContain(member.name);
      }
      if (type instanceof GraphQLScalarType) expect(github.getType(type.name), type.name).toBeInstanceOf(GraphQLScalarType);
    }
  });

  it("serves the root fields and mutations agents use", () => {
    expect(Object.keys(twin.getQueryType()?.getFields() ?? {})).toEqual(
      expect.arrayContaining(["viewer", "user", "organization", "repository", "node", "nodes", "search", "rateLimit"]),
    );
    expect(Object.keys(twin.getMutationType()?.getFields() ?? {})).toEqual(
      expect.arrayContaining([
        "addComment",
        "createIssue",
        "updateIssue",
        "closeIssue",
        "reopenIssue",
        "addLabelsToLabelable",
        "removeLabelsFromLabelable",
        "addAssigneesToAssignable",
        "createPullRequest",
        "updatePullRequest",
        "mergePullRequest",
        "addPullRequestReview",
        "submitPullRequestReview",
        "requestReviews",
        "createCommitOnBranch",
      ]),
    );
  });
});
