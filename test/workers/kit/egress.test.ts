// The egress policy as a plain decision (durable-objects/egress.ts): where a webhook may be
// registered and sent, for each setting, without HTTP.
import { describe, expect, it } from "vitest";
import {
  type EgressPolicy,
  type EgressScope,
  checkEgress,
  egressPolicyFrom,
  parseEgressSetting,
  withOwnOrigin,
} from "../../../durable-objects/egress";

const policy = (scopes: EgressScope[], ownOrigins: string[] = ["http://127.0.0.1:8787"]): EgressPolicy => ({
  scopes: new Set(scopes),
  ownOrigins,
});
const LOCAL = policy(["loopback"]);
const PUBLIC = policy(["public"], ["https://twins.example.com", "https://api.example.com"]);
const BOTH = policy(["loopback", "public"]);

const allowed = (url: string, p: EgressPolicy = LOCAL) => checkEgress(url, p).allowed;
const reason = (url: string, p: EgressPolicy = LOCAL) => {
  const v = checkEgress(url, p);
  return v.allowed ? "allowed" : v.reason;
};

describe("the setting", () => {
  it("defaults to loopback in development and public elsewhere", () => {
    expect([...egressPolicyFrom({ ENVIRONMENT: "development" }).scopes]).toEqual(["loopback"]);
    expect([...egressPolicyFrom({ ENVIRONMENT: "production" }).scopes]).toEqual(["public"]);
    expect([...egressPolicyFrom({}).scopes]).toEqual(["public"]);
  });

  it("reads loopback, public, both, or none; an unknown word is an error and allows nothing", () => {
    expect(parseEgressSetting("loopback, public", false)).toEqual({ ok: true, scopes: new Set(["loopback", "public"]) });
    expect(parseEgressSetting("none", true)).toEqual({ ok: true, scopes: new Set() });
    expect(parseEgressSetting("everything", true)).toMatchObject({ ok: false, message: expect.stringContaining("everything") });
    expect([...egressPolicyFrom({ EGRESS: "pubic", ENVIRONMENT: "development" }).scopes]).toEqual([]);
  });

  it("counts every configured origin as the platform's own", () => {
    const p = egressPolicyFrom({
      EGRESS: "public",
      TWINS_ORIGIN: "https://twins.example.com",
      DASHBOARD_ORIGIN: "https://app.example.com",
    });
    expect(reason("https://twins.example.com/hook", p)).toMatch(/platform itself/);
    expect(reason("https://app.example.com:8443/x", p)).toMatch(/platform itself/);
    expect(allowed("https://hooks.example.com/x", p)).toBe(true);
  });
});

describe("locally, loopback receivers on ports other than the platform's own", () => {
  it("allows 127.0.0.0/8, [::1] and localhost on another port", () => {
    for (const url of [
      "http://127.0.0.1:4010/hook",
      "http://127.9.9.9:4010/",
      "http://[::1]:4010/x",
      "http://localhost:4010/x",
      "https://localhost/x",
    ])
      expect(reason(url)).toBe("allowed");
  });

  it("refuses the platform's own port under every loopback name", () => {
    for (const url of ["http://127.0.0.1:8787/stripe/s/x", "http://localhost:8787/", "http://[::1]:8787/", "http://127.0.0.2:8787/"])
      expect(reason(url)).toMatch(/platform itself/);
  });

  it("counts the origin a call came in on as the platform's own", () => {
    const p = withOwnOrigin(policy(["loopback", "public"], []), "http://pome.test/slack/s/ses_1");
    expect(reason("http://pome.test/slack/s/ses_2/api/chat.postMessage", p)).toMatch(/platform itself/);
    expect(reason("http://127.0.0.1/x", p)).toMatch(/platform itself/);
    expect(reason("http://127.0.0.1:4010/x", p)).toBe("allowed");
  });

  it("refuses public addresses unless the setting allows them", () => {
    expect(reason("https://hooks.example.com/x")).toMatch(/EGRESS/);
    expect(reason("https://93.184.215.14/x")).toMatch(/EGRESS/);
    expect(allowed("https://hooks.example.com/x", BOTH)).toBe(true);
  });
});

describe("in production, public addresses only", () => {
  it("allows public hostnames and addresses", () => {
    for (const url of ["https://hooks.example.com/stripe", "http://93.184.215.14:8080/x", "https://[2606:4700::1111]/x"])
      expect(reason(url, PUBLIC)).toBe("allowed");
  });

  it("refuses loopback and local names", () => {
    for (const url of [
      "http://127.0.0.1:4010/",
      "http://[::1]:4010/",
      "http://localhost:4010/",
      "http://app.localhost/",
      "http://printer.local/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://intranet/",
    ])
      expect(allowed(url, PUBLIC)).toBe(false);
  });
});

describe("refused under every setting", () => {
  const every = [LOCAL, PUBLIC, BOTH];
  const refusedEverywhere = (url: string) => every.every((p) => !checkEgress(url, p).allowed);

  it("refuses schemes other than http and https", () => {
    for (const url of [
      "ftp://127.0.0.1:4010/",
      "file:///etc/passwd",
      "gopher://127.0.0.1:4010/",
      "javascript:alert(1)",
      "data:text/plain,x",
    ])
      expect(refusedEverywhere(url)).toBe(true);
    expect(reason("not a url")).toMatch(/absolute URL/);
  });

  it("refuses link-local, private, shared, reserved and multicast addresses", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://172.16.5.4/",
      "http://172.31.255.255/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://0.0.0.0:4010/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://[fe80::1]/",
      "http://[fc00::1]/",
      "http://[fd12:3456::1]/",
      "http://[ff02::1]/",
      "http://[::]/",
    ])
      expect(refusedEverywhere(url), url).toBe(true);
    expect(allowed("http://172.32.0.1/", PUBLIC)).toBe(true);
  });

  it("refuses other spellings of an address", () => {
    for (const url of [
      "http://0x7f000001:4010/",
      "http://2130706433:4010/",
      "http://0177.0.0.1:4010/",
      "http://127.1:4010/",
      "http://127.0.0.1.:4010/",
      "http://[::ffff:127.0.0.1]:4010/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[0:0:0:0:0:0:0:1]:4010/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[2002:a9fe:a9fe::]/",
      "http://%31%32%37.0.0.1:4010/",
      "http://localhost.:4010/",
      "http://hooks.example.com./x",
    ])
      expect(refusedEverywhere(url), url).toBe(true);
    expect(reason("http://0x7f000001:4010/")).toMatch(/usual form \(127\.0\.0\.1\)/);
  });

  it("refuses credentials in the URL", () => {
    for (const url of ["http://user:pass@127.0.0.1:4010/", "https://token@hooks.example.com/", "http://@127.0.0.1:4010/"])
      expect(refusedEverywhere(url), url).toBe(true);
    expect(allowed("https://hooks.example.com/path@x", PUBLIC)).toBe(true);
  });
});
