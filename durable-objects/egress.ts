// Where a twin's webhook and push deliveries may go: a pure decision over a URL and the policy, used
// when an endpoint is registered (refused in the vendor's shape) and again when each delivery is
// sent. Deny by default: only what the `EGRESS` setting names is allowed, and link-local, private
// and reserved addresses, other spellings of an address, credentials in a URL and the platform's
// own origins are refused under every setting.

/** What the `EGRESS` setting may allow: loopback receivers, public addresses, or both. */
export type EgressScope = "loopback" | "public";

export interface EgressPolicy {
  scopes: ReadonlySet<EgressScope>;
  /** The platform's own origins (configured and the one a call came in on): never a destination. */
  ownOrigins: readonly string[];
}

export type EgressVerdict = { allowed: true } | { allowed: false; reason: string };

/** The setting's variables, as wrangler `[vars]` provide them. */
export interface EgressVars {
  EGRESS?: string;
  ENVIRONMENT?: string;
  PUBLIC_ORIGIN?: string;
  API_ORIGIN?: string;
  TWINS_ORIGIN?: string;
  DASHBOARD_ORIGIN?: string;
}

/**
 * Reads `EGRESS`: `loopback`, `public`, `loopback,public` or `none`; empty means the default for the
 * environment (development: `loopback`, anything else: `public`). An unknown word is an error, so
 * a typo never widens or silently narrows what deliveries reach.
 */
export function parseEgressSetting(
  value: string | undefined,
  development: boolean,
): { ok: true; scopes: Set<EgressScope> } | { ok: false; message: string } {
  const words = (value ?? "")
    .split(",")
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  if (words.length === 0) return { ok: true, scopes: new Set([development ? "loopback" : "public"]) };
  const scopes = new Set<EgressScope>();
  for (const word of words) {
    if (word === "loopback" || word === "public") scopes.add(word);
    else if (word !== "none")
      return { ok: false, message: `EGRESS: unknown value "${word}" (expected loopback, public, "loopback,public" or none)` };
  }
  return { ok: true, scopes };
}

/** The policy a deployment's variables describe; an unreadable `EGRESS` allows nothing (fail closed). */
export function egressPolicyFrom(vars: EgressVars): EgressPolicy {
  const development = (vars.ENVIRONMENT ?? "production") === "development";
  const parsed = parseEgressSetting(vars.EGRESS, development);
  const ownOrigins = [vars.PUBLIC_ORIGIN, vars.API_ORIGIN, vars.TWINS_ORIGIN, vars.DASHBOARD_ORIGIN].filter((o): o is string => !!o);
  return { scopes: parsed.ok ? parsed.scopes : new Set(), ownOrigins };
}

/** The policy with one more origin of the platform's own (the one a call came in on). */
export function withOwnOrigin(policy: EgressPolicy, url: string): EgressPolicy {
  return URL.canParse(url) ? { ...policy, ownOrigins: [...policy.ownOrigins, url] } : policy;
}

const refuse = (reason: string): EgressVerdict => ({ allowed: false, reason });
const ALLOWED: EgressVerdict = { allowed: true };

/** Names that resolve on this machine or the local network, never on the public internet. */
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".intranet"];

export function checkEgress(target: string, policy: EgressPolicy): EgressVerdict {
  if (!URL.canParse(target)) return refuse("not an absolute URL");
  const url = new URL(target);
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(`the scheme ${url.protocol} is not http or https`);
  if (url.username || url.password || /^[^:]*:\/*[^/?#]*@/.test(target.trim())) return refuse("the URL carries credentials");
  const host = url.hostname;
  const written = writtenHost(target);
  const port = effectivePort(url);
  const own = ownHosts(policy.ownOrigins);
  if (host.endsWith(".")) return refuse("the host ends with a dot");
  const ipv4 = parseIpv4Dotted(host);
  const ipv6 = host.startsWith("[") ? parseIpv6(host.slice(1, -1)) : undefined;
  // WHATWG URL parsing turns 0x7f000001, 2130706433, 0177.0.0.1 and 127.1 into 127.0.0.1: any
  // address not written the way it is served is another spelling of it, refused as such.
  if ((ipv4 || ipv6) && written !== host) return refuse(`the address ${written} is not written in its usual form (${host})`);
  if (host.startsWith("[") && !ipv6) return refuse("the IPv6 address cannot be read");
  if (own.hosts.has(host)) return refuse("the URL points at the platform itself");
  const loopback = ipv4 ? ipv4[0] === 127 : ipv6 ? isIpv6Loopback(ipv6) : isLoopbackName(host);
  if (loopback) {
    if (own.ports.has(port)) return refuse(`port ${port} on this machine is the platform itself`);
    return policy.scopes.has("loopback") ? ALLOWED : refuse("loopback addresses are not allowed by the EGRESS setting");
  }
  const special = ipv4 ? ipv4Special(ipv4) : ipv6 ? ipv6Special(ipv6) : hostnameSpecial(host);
  if (special) return refuse(special);
  return policy.scopes.has("public") ? ALLOWED : refuse("public addresses are not allowed by the EGRESS setting");
}

/** The host as the URL's author wrote it, lower-cased, without credentials or port. */
function writtenHost(target: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:[\\/]*([^\\/?#]*)/i.exec(target.trim().replace(/[\t\n\r]/g, ""))?.[1] ?? "";
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
  if (hostPort.startsWith("[")) return hostPort.slice(0, hostPort.indexOf("]") + 1);
  const colon = hostPort.lastIndexOf(":");
  return colon === -1 ? hostPort : hostPort.slice(0, colon);
}

const effectivePort = (url: URL): number => (url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

const isLoopbackName = (host: string): boolean => host === "localhost" || host.endsWith(".localhost");

/**
 * The platform's own hosts, and its own ports on this machine: a loopback receiver on another port
 * is someone else's (a test's, a developer's), but any loopback address on a port the platform is
 * served on may be the platform under another name, so every own origin's port is one.
 */
function ownHosts(origins: readonly string[]): { hosts: Set<string>; ports: Set<number> } {
  const hosts = new Set<string>();
  const ports = new Set<number>();
  for (const origin of origins) {
    if (!URL.canParse(origin)) continue;
    const url = new URL(origin);
    const loopback = url.hostname.startsWith("127.") || url.hostname === "[::1]" || isLoopbackName(url.hostname);
    if (!loopback) hosts.add(url.hostname);
    ports.add(effectivePort(url));
  }
  return { hosts, ports };
}

/** Four octets when `host` is dotted-decimal IPv4 (the only form WHATWG serializes). */
function parseIpv4Dotted(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

const inV4 = (a: number[], [b0, b1, b2, b3]: number[], bits: number): boolean => {
  const n = ((a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3]) >>> 0;
  const base = ((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (n & mask) >>> 0 === (base & mask) >>> 0;
};

/** IPv4 blocks that are not public unicast (IANA special-purpose registry), with why. */
const IPV4_SPECIAL: readonly [number[], number, string][] = [
  [[0, 0, 0, 0], 8, "“this network” (0.0.0.0/8)"],
  [[10, 0, 0, 0], 8, "a private address (10.0.0.0/8)"],
  [[100, 64, 0, 0], 10, "a shared carrier-grade NAT address (100.64.0.0/10)"],
  [[169, 254, 0, 0], 16, "a link-local address (169.254.0.0/16)"],
  [[172, 16, 0, 0], 12, "a private address (172.16.0.0/12)"],
  [[192, 0, 0, 0], 24, "an IETF protocol address (192.0.0.0/24)"],
  [[192, 0, 2, 0], 24, "a documentation address (192.0.2.0/24)"],
  [[192, 88, 99, 0], 24, "a 6to4 relay address (192.88.99.0/24)"],
  [[192, 168, 0, 0], 16, "a private address (192.168.0.0/16)"],
  [[198, 18, 0, 0], 15, "a benchmarking address (198.18.0.0/15)"],
  [[198, 51, 100, 0], 24, "a documentation address (198.51.100.0/24)"],
  [[203, 0, 113, 0], 24, "a documentation address (203.0.113.0/24)"],
  [[224, 0, 0, 0], 4, "a multicast address (224.0.0.0/4)"],
  [[240, 0, 0, 0], 4, "a reserved address (240.0.0.0/4)"],
];

function ipv4Special(octets: number[]): string | undefined {
  const hit = IPV4_SPECIAL.find(([base, bits]) => inV4(octets, base, bits));
  return hit && `${octets.join(".")} is ${hit[2]}`;
}

/** Eight 16-bit groups of an IPv6 address as WHATWG serializes it (compressed, hex, no zone). */
function parseIpv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  // A dotted IPv4 tail (::ffff:1.2.3.4) is serialized by WHATWG in hex; refuse any other form.
  if ([...head, ...tail].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail].map((g) => Number.parseInt(g, 16));
}

const isIpv6Loopback = (g: number[]): boolean => g.slice(0, 7).every((x) => x === 0) && g[7] === 1;

function ipv6Special(g: number[]): string | undefined {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return "the unspecified address (::) is not a destination";
  if (zeros(5) && g[5] === 0xffff) return "an IPv4-mapped IPv6 address (::ffff:0:0/96) is another spelling of an IPv4 address";
  if (zeros(6)) return "an IPv4-compatible IPv6 address (::/96) is another spelling of an IPv4 address";
  if (g[0] === 0x64 && g[1] === 0xff9b) return "a NAT64 address (64:ff9b::/96) is another spelling of an IPv4 address";
  if (g[0] === 0x2002) return "a 6to4 address (2002::/16) is another spelling of an IPv4 address";
  if (g[0] === 0x2001 && g[1] < 0x200) return "an IETF protocol address (2001::/23, Teredo included)";
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "a documentation address (2001:db8::/32)";
  if ((g[0] & 0xfe00) === 0xfc00) return "a unique local (private) address (fc00::/7)";
  if ((g[0] & 0xffc0) === 0xfe80) return "a link-local address (fe80::/10)";
  if ((g[0] & 0xffc0) === 0xfec0) return "a site-local address (fec0::/10)";
  if ((g[0] & 0xff00) === 0xff00) return "a multicast address (ff00::/8)";
  if ((g[0] & 0xe000) !== 0x2000) return "not a global unicast address (2000::/3)";
  return undefined;
}

function hostnameSpecial(host: string): string | undefined {
  if (!host.includes(".")) return `the single-label name ${host} resolves only on a local network`;
  const suffix = LOCAL_SUFFIXES.find((s) => host.endsWith(s));
  return suffix && `names under ${suffix} resolve only on this machine or a local network`;
}

const EVERY_SETTING: EgressPolicy = { scopes: new Set(["loopback", "public"]), ownOrigins: [] };

/**
 * Why a seeded endpoint URL is refused under every setting (a private address, another spelling
 * of one, credentials, a scheme other than http(s)), or undefined. Seeds are validated before any
 * sandbox exists, so what depends on the setting and the origin is checked when each delivery is.
 */
export function refusedUnderEverySetting(url: string): string | undefined {
  const verdict = checkEgress(url, EVERY_SETTING);
  return verdict.allowed ? undefined : verdict.reason;
}
