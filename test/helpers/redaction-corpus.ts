/**
 * A planted-secret corpus for redaction-scan (issue 14), generated at run time from fragments so this repository
 * never holds a literal secret. Each planted secret and each look-alike gets its own file; `body` is the part of a
 * secret that must never be printed (the random part, without its public prefix).
 */
import { base62, crc32 } from "../../src/publishing/redaction/checksum.ts";
import type { Compiled } from "../../src/publishing/redaction/engine.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Plant {
  file: string;
  family: string;
  encoding: "plain" | "json-escaped" | "base64" | "utf-16le" | "utf-16be" | "one-line";
  body: string;
}

export interface LookAlike {
  file: string;
  text: string;
}

/** mulberry32: a deterministic generator from a seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOW = "abcdefghijklmnopqrstuvwxyz";
const DIG = "0123456789";
const ALNUM = UP + LOW + DIG;

export class Gen {
  constructor(readonly r: () => number) {}
  pick(chars: string, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += chars[Math.floor(this.r() * chars.length)];
    return s;
  }
  /** Random text that certainly mixes cases and digits (so entropy floors are met). */
  mixed(n: number, extra = ""): string {
    return this.pick(UP, 2) + this.pick(DIG, 2) + this.pick(LOW, 2) + this.pick(ALNUM + extra, n - 6);
  }
  /** A GitHub/npm token body: 30 random base62 characters and their CRC32 in six (checksum.ts). */
  checksummed(): string {
    const rand = this.mixed(30);
    return rand + base62(crc32(rand), 6);
  }
  one<T>(list: readonly T[]): T {
    return list[Math.floor(this.r() * list.length)]!;
  }
}

const pem = (kind: string, end = false) => `-----${end ? "END" : "BEGIN"} ${kind ? `${kind} ` : ""}PRIV${"ATE"} KEY${kind === "PGP" ? " BLOCK" : ""}-----`;

export interface Secret {
  family: string;
  /** The whole token as it would be pasted. */
  value: string;
  body: string;
}

/** One random secret of each family (token formats as the issuers print them). */
export function secretMakers(g: Gen): Array<() => Secret> {
  const tok = (family: string, prefix: string, body: string): Secret => ({ family, value: prefix + body, body });
  return [
    () => tok("aws_access_key", "AK" + "IA", g.pick(`${UP}234567`, 16)),
    () => tok("aws_secret_key", "", g.mixed(40, "/+")),
    () => tok("google_api_key", "AI" + "za", `Sy${g.mixed(33, "_-")}`),
    () => tok("azure_storage_key", "", `${g.mixed(86, "+/")}==`),
    () => tok("github_token", g.one(["gh" + "p_", "gh" + "o_", "gh" + "s_"]), g.checksummed()),
    () => tok("github_fine_grained_token", "github" + "_pat_", `${g.mixed(22)}_${g.mixed(59)}`),
    () => tok("gitlab_token", "gl" + "pat-", g.mixed(20)),
    () => tok("slack_token", "xo" + "xb-", `${g.pick(DIG, 11)}-${g.pick(DIG, 13)}-${g.mixed(24)}`),
    () => tok("slack_webhook", "https://hooks.slack" + ".com/services/", `T${g.pick(UP + DIG, 8)}/B${g.pick(UP + DIG, 10)}/${g.mixed(24)}`),
    () => tok("discord_webhook", "https://discord" + ".com/api/webhooks/", `${g.pick(DIG, 18)}/${g.mixed(68, "_-")}`),
    () => tok("stripe_key", g.one(["sk" + "_live_", "rk" + "_live_"]), g.mixed(24)),
    () => tok("jwt", "ey" + "J", jwtBody(g)),
    () => tok("npm_token", "np" + "m_", g.checksummed()),
    () => tok("pypi_token", "py" + "pi-", `AgEIcHlwaS5vcmc${g.mixed(60, "_-")}`),
    () => tok("anthropic_key", "sk" + "-ant-", `api03-${g.mixed(60, "_-")}`),
    () => tok("openai_key", "sk" + "-proj-", g.mixed(48, "_-")),
    () => tok("password", "", g.mixed(16, "!#%^&")),
  ];
}

function jwtBody(g: Gen): string {
  const b64u = (s: string) => Buffer.from(s).toString("base64url");
  const head = b64u(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64u(JSON.stringify({ sub: g.pick(DIG, 8), name: g.pick(LOW, 6), iat: 1700000000 + Math.floor(g.r() * 1e6) }));
  return `${head}.${payload}.${g.mixed(43, "_-")}`.slice(3);
}

/** How each family is written in a file: a line (or lines) that carry the secret `v`. */
function contexts(family: string, v: string): string[] {
  switch (family) {
    case "aws_access_key":
      return [`aws_access_key_id = ${v}`, `export AWS_ACCESS_KEY_ID=${v}`, `{"AccessKeyId": "${v}"}`];
    case "aws_secret_key":
      return [`aws_secret_access_key = ${v}`, `AWS_SECRET_ACCESS_KEY=${v}`, `"SecretAccessKey": "${v}",`, `aws_secret_access_key: "${v}"`];
    case "azure_storage_key":
      return [`AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=acct${v.length};AccountKey=${v};EndpointSuffix=core.windows.net`];
    case "password":
      return [`db_password = "${v}"`, `DB_PASSWORD=${v}`, `  password: "${v}"`, `"clientSecret": "${v}",`, `x-api-key: ${v}`, `export SERVICE_API_TOKEN=${v}`, `credentials = '${v}'`, `my_pwd := "${v}"`, `$apiKey = "${v}";`];
    case "slack_webhook":
    case "discord_webhook":
      return [`webhook_url: ${v}`, `curl -X POST -d '{"text":"hi"}' ${v}`];
    default:
      return [`TOKEN=${v}`, `const token = "${v}";`, `curl -H 'Authorization: token ${v}' https://api.example.com/user`, `GITHUB_TOKEN=${v} # TODO rotate`, `{"key": "${v}"}`, `key: ${v}`];
  }
}

const utf16be = (s: string) => {
  const le = Buffer.from(s, "utf16le");
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
};

function privateKey(g: Gen, kind: string): { lines: string[]; body: string } {
  const body = Array.from({ length: 12 }, () => g.mixed(64, "+/"));
  return { lines: [pem(kind), ...body, pem(kind, true)], body: body.join("\n") };
}

/** Files of planted secrets: every family in several contexts, and the encodings of issue 14. */
export function plantCorpus(dir: string, seed: number): Plant[] {
  const g = new Gen(rng(seed));
  const plants: Plant[] = [];
  let n = 0;
  const put = (family: string, encoding: Plant["encoding"], content: string | Buffer, body: string, ext = "txt") => {
    const file = `secrets/${String(n++).padStart(3, "0")}-${family}-${encoding}.${ext}`;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
    plants.push({ file, family, encoding, body });
  };
  const filler = "some ordinary text before\n";
  for (const make of secretMakers(g)) {
    for (const ctx of contexts(make().family, "\u0000")) {
      const s = make();
      put(s.family, "plain", `${filler}${ctx.replace("\u0000", s.value)}\nafter\n`, s.body);
    }
    const s = make();
    const line = contexts(s.family, s.value)[0]!;
    put(s.family, "base64", `${filler}blob: ${Buffer.from(line).toString("base64")}\n`, s.body);
    const u = make();
    const uline = contexts(u.family, u.value)[0]!;
    put(u.family, "utf-16le", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${filler}${uline}\n`, "utf16le")]), u.body);
    const b = make();
    put(b.family, "utf-16be", Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(`${filler}${contexts(b.family, b.value)[0]!}\n`)]), b.body);
    const j = make();
    const escaped = [...j.value].map((ch) => (ch === "-" || ch === "_" ? `\\u00${ch.charCodeAt(0).toString(16)}` : ch)).join("");
    const key = j.family === "password" ? "client_secret" : "token";
    put(j.family, "json-escaped", `{"${key}": "${escaped}"}\n`, j.body, "json");
  }
  for (const kind of ["RSA", "EC", "DSA", "OPENSSH", "PGP", "", "ENCRYPTED"]) {
    const k = privateKey(g, kind);
    put("private_key", "plain", `${filler}${k.lines.join("\n")}\n`, k.body, "pem");
    const one = privateKey(g, kind);
    put("private_key", "one-line", `key: ${one.lines.join(" ")}\n`, one.body.replace(/\n/g, " "));
    const js = privateKey(g, kind);
    put("private_key", "json-escaped", `{"type": "service_account", "private_key": "${js.lines.join("\\n")}\\n", "x": 1}\n`, js.body.replace(/\n/g, "\\n"), "json");
  }
  return plants;
}

/** Placeholder look-alikes: values people commit that are not secrets. None should be reported. */
export function lookAlikes(): LookAlike[] {
  const names = ["password", "DB_PASSWORD", "api_key", "client_secret", "access_token", "auth_token", "secret_key", "apiKey"];
  const values = [
    "changeme",
    "<password>",
    "${DB_PASSWORD}",
    "your-api-key-here",
    "REDACTED",
    "xxxxxxxxxxxx",
    "********",
    "placeholder-value",
    "{{ .Values.secret }}",
    "%(password)s",
    "process.env.SECRET_VALUE",
    "dummy-value-123",
    "https://auth.example.com/oauth/token",
  ];
  const out: LookAlike[] = [];
  names.forEach((name, i) => {
    values.forEach((val, k) => {
      const quoted = (i + k) % 2 === 0;
      out.push({ file: `lookalikes/${out.length}.txt`, text: quoted ? `${name} = "${val}"\n` : `${name}=${val}\n` });
    });
  });
  const tokens = [
    "AK" + "IAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
    `ghp_${"x".repeat(36)}`,
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    `glpat-${"x".repeat(20)}`,
    ["https://hooks.slack", ".com/services/T00000000/B00000000/", "X".repeat(24)].join(""), // joined: no literal for the self-scan
    "xo" + "xb-your-slack-token-here",
    `sk_live_${"x".repeat(24)}`,
    "STRIPE_KEY=sk" + "_test_" + "4eC39HqLyjWDarjtT1zdp7dc",
    `AIzaSy${"X".repeat(33)}`,
    `npm_${"x".repeat(36)}`,
    "Authorization: Bearer <token>",
    "Authorization: Bearer YOUR_ACCESS_TOKEN_GOES_HERE",
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----",
    `${pem("RSA")}\n...\n${pem("RSA", true)}`,
    "password = None",
    "token = null",
    "const token = req.headers.authorization;",
    "password_hash = bcrypt(password)",
    `blob: ${Buffer.from("hello world, nothing to see here at all").toString("base64")}`,
    'tokenizer = "bert-base-uncased"',
  ];
  for (const t of tokens) out.push({ file: `lookalikes/${out.length}.txt`, text: `${t}\n` });
  return out;
}

export function writeLookAlikes(dir: string, list: LookAlike[]): void {
  mkdirSync(join(dir, "lookalikes"), { recursive: true });
  for (const l of list) writeFileSync(join(dir, l.file), l.text);
}

/** Every 8-character window of `body` that appears in `out` (a leak), at most a few. */
/** `prefix` + a body of 30 fixed characters and their checksum (a token the checksum rules accept). */
export function checksumToken(prefix: string, rand30: string): string {
  return prefix + rand30 + base62(crc32(rand30), 6);
}

export function leaks(body: string, out: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= body.length && found.length < 3; i++) {
    const w = body.slice(i, i + 8);
    if (out.includes(w)) found.push(w);
  }
  return found;
}

/**
 * The reference engine for equivalence tests: the same rules with no prefilter at all (no lead gates, no presence
 * tests, no literal gates), so every regex runs over every text and keywords are checked: gitleaks' semantics.
 */
export function noPrefilter(c: Compiled): Compiled {
  const steps = c.steps.map((s) => ({ ...s, lead: -1, leadOwn: false, leadGroup: -1, gate: null, gateGroup: -1 }));
  return { ...c, presence: [], leadList: [], steps };
}
