/**
 * Issue 25's corpus, shaped like an AI-agent operations repository: every planted secret is assembled at run time
 * (string fragments and a seeded generator, so this repository never holds a literal that a scanner flags), in one
 * of 80+ families, written in one of 13 encodings (plain, JSON-escaped, a Claude Code transcript line, a
 * double-escaped Codex rollout line, base64, percent-encoded, UTF-16LE/BE with a byte-order mark, a YAML list item,
 * a `+` line of a diff, an env export, an HTTP header, a chat paste), each in its own file. Look-alikes (documentation
 * samples, placeholders, all-same and counting tails, `${VAR}` references, names that are not values, hashes, UUIDs,
 * lockfile integrity strings) are files that must stay quiet. A tool "finds" a plant when it reports anything in its
 * file; a look-alike reported is a false positive. Shared by the e2e corpus test and `bench redaction`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Gen, rng } from "./redaction-corpus.ts";

type Encoding = "plain" | "json-escaped" | "claude-jsonl" | "codex-jsonl" | "base64" | "percent" | "utf-16le" | "utf-16be" | "yaml-list" | "diff" | "env-export" | "header" | "chat-paste";

export interface AgentPlant {
  file: string;
  family: string;
  encoding: Encoding;
  /** The random part that must never be printed (8-character windows are searched in every output). */
  body: string;
}

export interface AgentLookAlike {
  file: string;
  kind: string;
}

const UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOW = "abcdefghijklmnopqrstuvwxyz";
const DIG = "0123456789";
const HEX = "0123456789abcdef";
const ALNUM = UP + LOW + DIG;
const B64 = `${ALNUM}+/`;
const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";

const j = (...parts: string[]) => parts.join("");

interface Family {
  family: string;
  /** The secret and its random body. */
  make: (g: Gen) => { value: string; body: string };
  /** The line that carries the secret in its natural habitat (`v` is the value). */
  line: (v: string, g: Gen) => string;
  /** Also an env-style name for the env/yaml/diff encodings (a format token stands alone otherwise). */
  env?: string;
  /** The env encodings assign the whole line (a URL), not the bare secret. */
  envValue?: boolean;
  /** Multi-line files only (netrc, pgpass, PEM): no line-wrapping encodings. */
  fileOnly?: { name: string; text: (v: string) => string };
}

const tok = (prefix: string, body: string) => ({ value: prefix + body, body });

function b64json(o: unknown): string {
  return Buffer.from(JSON.stringify(o)).toString("base64url");
}

/** A GitHub token with a valid checksum: prefix, 30 random base62 characters, base62 CRC32 of them (6). */
function githubToken(g: Gen, prefix: string): { value: string; body: string } {
  const body = g.checksummed();
  return { value: prefix + body, body };
}

function families(): Family[] {
  const F: Family[] = [];
  const add = (f: Family) => F.push(f);
  const fmt = (family: string, prefix: string, body: (g: Gen) => string, env: string) => add({ family, make: (g) => tok(prefix, body(g)), line: (v, g) => g.one([`see ${v} in the logs`, `token: ${v}`, `"value": "${v}"`, `--token ${v}`, `${v}`]), env });
  fmt("aws_access_key", j("AK", "IA"), (g) => g.pick(`${UP}234567`, 16), "AWS_ACCESS_KEY_ID");
  add({ family: "aws_secret_key", make: (g) => tok("", g.mixed(40, "/+")), line: (v) => `aws_secret_access_key = ${v}`, env: "AWS_SECRET_ACCESS_KEY" });
  add({ family: "aws_session_token", make: (g) => tok(j("IQoJb3Jp", "Z2luX2Vj"), g.mixed(300, "/+")), line: (v) => `"SessionToken": "${v}"`, env: "AWS_SESSION_TOKEN" });
  fmt("google_api_key", j("AI", "za"), (g) => `Sy${g.mixed(33, "_-")}`, "GOOGLE_API_KEY");
  fmt("gcp_oauth_client_secret", j("GOC", "SPX-"), (g) => g.mixed(28, "_-"), "GOOGLE_CLIENT_SECRET");
  add({ family: "azure_storage_key", make: (g) => tok("", `${g.mixed(86, "+/")}==`), line: (v) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${v};EndpointSuffix=core.windows.net`, env: "AZURE_STORAGE_KEY" });
  add({ family: "azure_ad_client_secret", make: (g) => tok("", `${g.pick(ALNUM, 3)}${g.pick(DIG, 1)}Q~${g.mixed(34, "_~.-").replace(/^[-]/, "a")}`), line: (v) => `client secret ${v} for the app`, env: "AZURE_CLIENT_SECRET" });
  for (const p of ["p", "o", "s", "r", "u"]) add({ family: `github_token_gh${p}`, make: (g) => githubToken(g, j("gh", p, "_")), line: (v, g) => g.one([`git push https://x:${v}@github.com/o/r`, `use ${v}`, `"token": "${v}"`]), env: "GITHUB_TOKEN" });
  fmt("github_fine_grained_token", j("github", "_pat_"), (g) => `${g.mixed(22)}_${g.mixed(59)}`, "GH_PAT");
  fmt("gitlab_pat", j("gl", "pat-"), (g) => g.mixed(20, "_-"), "GITLAB_TOKEN");
  fmt("gitlab_runner", j("gl", "rt-"), (g) => g.mixed(20, "_-"), "RUNNER_TOKEN");
  fmt("slack_bot_token", j("xo", "xb-"), (g) => `${g.pick(DIG, 11)}-${g.pick(DIG, 13)}-${g.mixed(24)}`, "SLACK_BOT_TOKEN");
  fmt("slack_user_token", j("xo", "xp-"), (g) => `${g.pick(DIG, 11)}-${g.pick(DIG, 12)}-${g.pick(DIG, 13)}-${g.pick(HEX, 32)}`, "SLACK_USER_TOKEN");
  fmt("slack_app_token", j("xa", "pp-"), (g) => `1-A${g.pick(UP + DIG, 10)}-${g.pick(DIG, 13)}-${g.pick(HEX, 64)}`, "SLACK_APP_TOKEN");
  add({ family: "slack_webhook", make: (g) => tok(j("https://hooks.sl", "ack.com/services/"), `T${g.pick(UP + DIG, 8)}/B${g.pick(UP + DIG, 10)}/${g.mixed(24)}`), line: (v) => `notify: ${v}` });
  add({ family: "discord_webhook", make: (g) => tok(j("https://disc", "ord.com/api/webhooks/"), `${g.pick(DIG, 18)}/${g.mixed(68, "_-")}`), line: (v) => `curl -X POST ${v}` });
  add({ family: "discord_bot_token", make: (g) => tok("", `${g.mixed(24)}.${g.mixed(6)}.${g.mixed(38, "_-")}`), line: (v) => `DISCORD_BOT_TOKEN="${v}"` });
  fmt("stripe_secret_key", j("sk", "_live_"), (g) => g.mixed(24), "STRIPE_SECRET_KEY");
  fmt("stripe_restricted_key", j("rk", "_live_"), (g) => g.mixed(24), "STRIPE_RESTRICTED");
  fmt("stripe_webhook_secret", j("wh", "sec_"), (g) => g.mixed(32), "STRIPE_WEBHOOK_SECRET");
  add({
    family: "jwt",
    make: (g) => {
      const body = `${b64json({ alg: "HS256", typ: "JWT" }).slice(3)}.${b64json({ sub: g.pick(DIG, 9), role: "service", exp: 1900000000 + Math.floor(g.r() * 1e6) })}.${g.mixed(43, "_-")}`;
      return tok(j("ey", "J"), body);
    },
    line: (v, g) => g.one([`Authorization: Bearer ${v}`, `session=${v}`, `"id_token": "${v}"`]),
    env: "SUPABASE_SERVICE_ROLE_KEY",
  });
  fmt("npm_token", j("np", "m_"), (g) => g.checksummed(), "NPM_TOKEN");
  fmt("pypi_token", j("py", "pi-"), (g) => `AgEIcHlwaS5vcmc${g.mixed(60, "_-")}`, "PYPI_TOKEN");
  fmt("anthropic_api_key", j("sk-", "ant-api03-"), (g) => `${g.mixed(93, "_-")}AA`, "ANTHROPIC_API_KEY");
  fmt("anthropic_admin_key", j("sk-", "ant-admin01-"), (g) => `${g.mixed(93, "_-")}AA`, "ANTHROPIC_ADMIN_KEY");
  fmt("openai_project_key", j("sk-", "proj-"), (g) => g.mixed(156, "_-"), "OPENAI_API_KEY");
  fmt("openai_svcacct_key", j("sk-", "svcacct-"), (g) => g.mixed(156, "_-"), "OPENAI_API_KEY");
  fmt("openai_admin_key", j("sk-", "admin-"), (g) => g.mixed(156, "_-"), "OPENAI_ADMIN_KEY");
  fmt("openai_legacy_key", j("sk", "-"), (g) => `${g.mixed(20)}${j("T3Blbk", "FJ")}${g.mixed(20)}`, "OPENAI_API_KEY");
  fmt("huggingface_token", j("h", "f_"), (g) => g.pick(UP, 2) + g.pick(LOW, 2) + g.pick(UP + LOW, 30), "HF_TOKEN");
  fmt("atlassian_api_token", j("ATAT", "T3"), (g) => `xFfGF0${g.mixed(170, "_-")}=${g.pick(HEX.toUpperCase(), 8)}`, "JIRA_API_TOKEN");
  fmt("databricks_token", j("da", "pi"), (g) => `${g.pick(HEX, 30)}a1`, "DATABRICKS_TOKEN");
  fmt("digitalocean_pat", j("do", "p_v1_"), (g) => `${g.pick(HEX, 62)}a1`, "DIGITALOCEAN_TOKEN");
  fmt("digitalocean_oauth", j("do", "o_v1_"), (g) => `${g.pick(HEX, 62)}b2`, "DO_OAUTH");
  fmt("dockerhub_pat", j("dc", "kr_pat_"), (g) => g.mixed(27, "_-"), "DOCKERHUB_TOKEN");
  add({
    family: "docker_config_auth",
    make: (g) => {
      const pass = g.mixed(18);
      return { value: Buffer.from(`deploy:${pass}`).toString("base64"), body: pass };
    },
    line: (v) => `{"auths": {"registry.acme.dev": {"auth": "${v}"}}}`,
  });
  fmt("doppler_token", j("dp", ".pt."), (g) => g.mixed(43), "DOPPLER_TOKEN");
  fmt("grafana_service_account", j("gl", "sa_"), (g) => `${g.mixed(32)}_${g.pick(HEX, 8)}`, "GRAFANA_TOKEN");
  fmt("grafana_cloud_token", j("gl", "c_"), (g) => `${b64json({ o: g.pick(DIG, 6), n: `stack-${g.pick(DIG, 6)}`, k: g.mixed(24) }).replace(/[-_]/g, "A")}`, "GRAFANA_CLOUD_TOKEN");
  fmt("heroku_api_key", j("HR", "KU-"), (g) => `AA${g.mixed(58, "_-")}`, "HEROKU_API_KEY");
  add({ family: "heroku_legacy_key", make: (g) => tok("", `${g.pick(HEX, 8)}-${g.pick(HEX, 4)}-4${g.pick(HEX, 3)}-a${g.pick(HEX, 3)}-${g.pick(HEX, 12)}`), line: (v) => `heroku_api_key: ${v}` });
  add({
    family: "kubeadm_bootstrap_token",
    make: (g) => tok("", `${g.pick(LOW + DIG, 6)}.${g.pick(LOW, 4)}${g.pick(DIG, 4)}${g.pick(LOW + DIG, 8)}`),
    line: (v) => `kubeadm join ${["10", "0", "0", "1"].join(".")}:6443 --token ${v} --discovery-token-ca-cert-hash sha256:${"0".repeat(4)}`,
  });
  fmt("linear_api_key", j("lin", "_api_"), (g) => g.mixed(40), "LINEAR_API_KEY");
  fmt("mailgun_api_key", j("ke", "y-"), (g) => `${g.pick(HEX, 30)}c3`, "MAILGUN_API_KEY");
  fmt("notion_token", j("nt", "n_"), (g) => g.pick(DIG, 11) + g.mixed(35), "NOTION_TOKEN");
  fmt("notion_legacy_secret", j("sec", "ret_"), (g) => g.mixed(43), "NOTION_KEY");
  fmt("postman_api_key", j("PM", "AK-"), (g) => `${g.pick(HEX, 24)}-${g.pick(HEX, 34)}`, "POSTMAN_API_KEY");
  fmt("sendgrid_api_key", j("S", "G."), (g) => `${g.mixed(22, "_-")}.${g.mixed(43, "_-")}`, "SENDGRID_API_KEY");
  fmt("sentry_user_token", j("sntr", "yu_"), (g) => `${g.pick(HEX, 62)}d4`, "SENTRY_AUTH_TOKEN");
  add({ family: "sentry_dsn", make: (g) => tok("", `${g.pick(HEX, 30)}e5`), line: (v, g) => `dsn: https://${v}@o${g.pick(DIG, 6)}.ingest.sent${"ry"}.io/${g.pick(DIG, 7)}`, env: undefined });
  fmt("shopify_token", j("shp", "at_"), (g) => `${g.pick(HEX, 30)}f6`, "SHOPIFY_ACCESS_TOKEN");
  fmt("square_access_token", j("EA", "AA"), (g) => g.mixed(60, "_-"), "SQUARE_ACCESS_TOKEN");
  fmt("square_oauth_secret", j("sq0", "csp-"), (g) => g.mixed(43, "_-"), "SQUARE_OAUTH_SECRET");
  add({ family: "terraform_cloud_token", make: (g) => tok("", `${g.mixed(14)}.${j("atlas", "v1")}.${g.mixed(67, "_-")}`), line: (v) => `credentials "app.terraform.io" { token = "${v}" }`, env: "TFE_TOKEN" });
  fmt("twilio_api_key", j("S", "K"), (g) => `${g.pick(HEX, 30)}a7`, "TWILIO_API_KEY");
  fmt("vault_service_token", j("hv", "s."), (g) => g.mixed(90, "_-"), "VAULT_TOKEN");
  fmt("vault_batch_token", j("hv", "b."), (g) => g.mixed(138, "_-"), "VAULT_BATCH_TOKEN");
  add({ family: "age_secret_key", make: (g) => tok(j("AGE-SEC", "RET-KEY-1"), g.pick(BECH32, 58)), line: (v) => `# created: 2024-01-01\n${v}` });
  add({ family: "wireguard_private_key", make: (g) => tok("", `${g.mixed(42, "+/")}${g.one(["A", "E", "I", "M", "Q"])}=`), line: (v) => `[Interface]\nPrivateKey = ${v}\nAddress = ${["10", "8", "0", "2"].join(".")}/24` });
  add({ family: "telegram_bot_token", make: (g) => tok("", `${g.pick("123456789", 1)}${g.pick(DIG, 9)}:AA${g.mixed(33, "_-")}`), line: (v) => `bot = Bot("${v}")`, env: "TELEGRAM_BOT_TOKEN" });
  const url = (family: string, scheme: string, host: string) => add({ family, make: (g) => tok("", g.mixed(16)), line: (v) => `${scheme}://app_user:${v}@${host}`, env: "DATABASE_URL", envValue: true });
  url("postgres_url", "postgres", "db.acme.dev:5432/app");
  url("mysql_url", "mysql", "mysql.acme.dev:3306/app");
  url("mongodb_srv_url", "mongodb+srv", "cluster0.ab1cd.mongodb.net/app");
  url("redis_url", "rediss", "cache.acme.dev:6380/0");
  url("amqp_url", "amqps", "mq.acme.dev/vhost");
  url("https_basic_auth", "https", "artifacts.acme.dev/repo");
  add({ family: "curl_user_password", make: (g) => tok("", g.mixed(14)), line: (v) => `curl -fsS -u deploy:${v} https://ci.acme.dev/api/json` });
  add({ family: "netrc", make: (g) => tok("", g.mixed(20)), line: () => "", fileOnly: { name: ".netrc", text: (v) => `machine api.acme.dev\n  login deploy\n  password ${v}\n` } });
  add({ family: "pgpass", make: (g) => tok("", g.mixed(18)), line: () => "", fileOnly: { name: ".pgpass", text: (v) => `# host:port:db:user:password\ndb.acme.dev:5432:app:app_user:${v}\n` } });
  const pem = (kind: string) => j("-----BEGIN ", kind, "PRIV", "ATE KEY-----");
  const pemEnd = (kind: string) => j("-----END ", kind, "PRIV", "ATE KEY-----");
  for (const kind of ["RSA ", "OPENSSH ", "EC ", ""]) {
    add({
      family: `private_key_${kind.trim().toLowerCase() || "pkcs8"}`,
      make: (g) => {
        const lines = Array.from({ length: 8 }, () => g.mixed(64, "+/"));
        return { value: `${pem(kind)}\n${lines.join("\n")}\n${pemEnd(kind)}`, body: lines.join("\n") };
      },
      line: () => "",
      fileOnly: { name: "id.key", text: (v) => `${v}\n` },
    });
  }
  add({
    family: "gcp_service_account",
    make: (g) => {
      const lines = Array.from({ length: 6 }, () => g.mixed(64, "+/"));
      return { value: `${pem("")}\\n${lines.join("\\n")}\\n${pemEnd("")}\\n`, body: lines[0]! };
    },
    line: () => "",
    fileOnly: { name: "sa.json", text: (v) => `{"type": "service_account", "project_id": "p", "private_key": "${v}", "client_email": "x@p.iam.gserviceaccount.com"}\n` },
  });
  add({ family: "generic_password", make: (g) => tok("", g.mixed(16, "!#%^")), line: (v) => `db_password = "${v}"`, env: "POSTGRES_PASSWORD" });
  add({ family: "x_api_key_header", make: (g) => tok("", g.mixed(32)), line: (v) => `curl -H "X-API-Key: ${v}" https://api.acme.dev/v1/items` });
  add({ family: "connection_string_password", make: (g) => tok("", g.mixed(16)), line: (v) => `Server=tcp:sql.acme.dev,1433;Database=app;User ID=app;Password=${v};Encrypt=true;` });
  add({ family: "properties_password", make: (g) => tok("", g.mixed(16)), line: (v) => `spring.datasource.password=${v}` });
  add({ family: "azure_storage_env", make: (g) => tok("", `${g.mixed(86, "+/")}==`), line: (v) => `export AZURE_STORAGE_KEY=${v}` });
  add({ family: "openrouter_key", make: (g) => tok(j("sk-", "or-v1-"), `${g.pick(HEX, 62)}a9`), line: (v) => `OPENROUTER_API_KEY=${v}`, env: "OPENROUTER_API_KEY" });
  add({ family: "jsonl_api_key", make: (g) => tok("", g.mixed(40)), line: (v) => `{"mcpServers": {"search": {"env": {"BRAVE_API_KEY": "${v}"}}}}` });
  add({
    family: "authorization_basic",
    make: (g) => {
      const pass = g.mixed(16);
      return { value: Buffer.from(`ci:${pass}`).toString("base64"), body: pass };
    },
    line: (v) => `Authorization: Basic ${v}`,
  });
  return F;
}

const ENV_ENCODINGS: Encoding[] = ["yaml-list", "diff", "env-export"];
const LINE_ENCODINGS: Encoding[] = ["plain", "json-escaped", "claude-jsonl", "codex-jsonl", "base64", "percent", "utf-16le", "utf-16be", "header", "chat-paste"];

function utf16be(s: string): Buffer {
  const le = Buffer.from(s, "utf16le");
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

/** The file text of `line` in `enc` (env encodings take `NAME=value`). */
function encode(enc: Encoding, line: string, env: string | undefined, value: string): { content: string | Buffer; ext: string } {
  const filler = "Some ordinary notes before the interesting part.\n";
  const envLine = `${env}=${value}`;
  switch (enc) {
    case "plain":
      return { content: `${filler}${line}\nafter\n`, ext: "txt" };
    case "json-escaped": {
      const esc = JSON.stringify(line).replace(/\//g, "\\/").replace(/-/g, "\\u002d").replace(/_/g, "\\u005f");
      return { content: `{"note": ${esc}}\n`, ext: "json" };
    }
    case "claude-jsonl": {
      const row = { type: "user", sessionId: "s1", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: `$ cat notes\n${line}\n` }] } };
      return { content: `{"type":"summary","summary":"work"}\n${JSON.stringify(row)}\n`, ext: "jsonl" };
    }
    case "codex-jsonl": {
      const row = { timestamp: "2025-01-01T00:00:00Z", type: "response_item", payload: { type: "function_call_output", call_id: "c1", output: JSON.stringify({ output: `${line}\n`, metadata: { exit_code: 0 } }) } };
      return { content: `${JSON.stringify({ type: "session_meta", payload: { id: "x" } })}\n${JSON.stringify(row)}\n`, ext: "jsonl" };
    }
    case "base64":
      return { content: `${filler}blob: ${Buffer.from(line).toString("base64")}\n`, ext: "txt" };
    case "percent":
      return { content: `${filler}GET /oauth/cb?state=1&note=${encodeURIComponent(line)} HTTP/1.1\n`, ext: "log" };
    case "utf-16le":
      return { content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${filler}${line}\r\n`, "utf16le")]), ext: "ps1" };
    case "utf-16be":
      return { content: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(`${filler}${line}\r\n`)]), ext: "txt" };
    case "yaml-list":
      return { content: `services:\n  app:\n    image: app:1\n    environment:\n      - ${envLine}\n      - LOG_LEVEL=info\n`, ext: "yml" };
    case "diff":
      return { content: `diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n-LOG_LEVEL=debug\n+${envLine}\n LOG_FORMAT=json\n`, ext: "diff" };
    case "env-export":
      return { content: `#!/bin/sh\nexport ${envLine}\nexec app\n`, ext: "sh" };
    case "header":
      return { content: `> GET /v1/me HTTP/1.1\n> Host: api.acme.dev\n> X-Debug: ${line}\n`, ext: "http" };
    case "chat-paste":
      return { content: `user: it fails with this config, can you look?\n\n\`\`\`\n${line}\n\`\`\`\n`, ext: "md" };
  }
}

/** At least 350 plants across every family and 13 encodings, deterministic for a seed. */
export function plantAgentCorpus(dir: string, seed: number): AgentPlant[] {
  const g = new Gen(rng(seed));
  const out: AgentPlant[] = [];
  const put = (family: string, encoding: Encoding, content: string | Buffer, body: string, name: string) => {
    const file = `plants/${String(out.length).padStart(3, "0")}-${family}-${encoding}/${name}`;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
    out.push({ file, family, encoding, body });
  };
  let k = 0;
  for (const f of families()) {
    if (f.fileOnly) {
      for (let i = 0; i < 2; i++) {
        const s = f.make(g);
        put(f.family, "plain", f.fileOnly.text(s.value), s.body, f.fileOnly.name);
      }
      continue;
    }
    const encs = [...[0, 1, 2, 3].map((i) => LINE_ENCODINGS[(k * 3 + i) % LINE_ENCODINGS.length]!), ...(f.env ? [ENV_ENCODINGS[k % 3]!] : [])];
    if (!encs.includes("plain")) encs.push("plain");
    k++;
    for (const enc of encs) {
      const s = f.make(g);
      const line = f.line(s.value, g);
      const { content, ext } = encode(enc, line, f.env, f.envValue ? line : s.value);
      put(f.family, enc, content, s.body, `f.${ext}`);
    }
  }
  return out;
}

/** At least 300 look-alikes: values people commit that are not secrets. */
function agentLookAlikes(seed: number): Array<{ kind: string; text: string; name?: string }> {
  const g = new Gen(rng(seed ^ 0x5eed));
  const L: Array<{ kind: string; text: string; name?: string }> = [];
  const add = (kind: string, text: string, name?: string) => L.push({ kind, text: `${text}\n`, name });
  const same = (n: number, ch = "x") => ch.repeat(n);
  const seq = (n: number) => `${ALNUM.toLowerCase()}0123456789abcdefghijklmnopqrstuvwxyz`.slice(0, n);
  const prefixes: Array<[string, number]> = [
    [j("gh", "p_"), 36],
    [j("gh", "o_"), 36],
    [j("github", "_pat_"), 82],
    [j("gl", "pat-"), 20],
    [j("xo", "xb-"), 30],
    [j("sk", "_live_"), 24],
    [j("np", "m_"), 36],
    [j("h", "f_"), 34],
    [j("GOC", "SPX-"), 28],
    [j("dc", "kr_pat_"), 27],
    [j("dp", ".pt."), 43],
    [j("gl", "sa_"), 41],
    [j("lin", "_api_"), 40],
    [j("PM", "AK-"), 59],
    [j("hv", "s."), 90],
    [j("sk-", "ant-api03-"), 95],
    [j("sk-", "proj-"), 60],
    [j("sntr", "yu_"), 64],
    [j("shp", "at_"), 32],
    [j("do", "p_v1_"), 64],
    [j("da", "pi"), 32],
    [j("HR", "KU-"), 60],
    [j("wh", "sec_"), 32],
    [j("AK", "IA"), 16],
  ];
  for (const [p, n] of prefixes) {
    add("all-same", `TOKEN=${p}${same(n)}`);
    add("all-same-upper", `value: ${p}${same(n, "A")}`);
    add("all-zero", `"key": "${p}${same(n, "0")}"`);
    add("sequential", `token = "${p}${seq(n)}"`);
    add("placeholder", `API_TOKEN=${p}REPLACE_ME`);
    add("placeholder-angle", `token: ${p}<your-token>`);
  }
  // Made-up GitHub and npm tokens of the real shape whose checksum is wrong (a docs example, a typo, a fake).
  for (let i = 0; i < 12; i++) add("bad-checksum", `token: ${g.one([j("gh", "p_"), j("gh", "o_"), j("np", "m_")])}${g.mixed(30)}${g.pick(UP, 6)}`);
  const docs = [
    j("AK", "IAIOSFODNN7EXAMPLE"),
    j("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "EXAMPLEKEY"),
    j("ey", "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    j("STRIPE_KEY=sk", "_test_", "4eC39HqLyjWDarjtT1zdp7dc"),
    j("https://examplePublicKey", "@o0.ingest.sentry.io/0"),
    j("xo", "xb-not-a-real-token-this-will-not-work"),
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----",
    j("-----BEGIN RSA PRIV", "ATE KEY-----\n...\n-----END RSA PRIV", "ATE KEY-----"),
  ];
  for (const d of docs) add("documentation-example", d);
  const names = ["POSTGRES_PASSWORD", "DB_PASSWORD", "API_KEY", "CLIENT_SECRET", "ACCESS_TOKEN", "AUTH_TOKEN", "SECRET_KEY", "apiKey", "password", "GITHUB_TOKEN"];
  const values = ["changeme", "${DB_PASSWORD}", "$API_KEY", "<password>", "your-api-key-here", "REDACTED", "********", "{{ .Values.secret }}", "%(password)s", "process.env.SECRET_VALUE", "REPLACE_ME", "${{ secrets.GITHUB_TOKEN }}", "null", "xxxxxxxxxxxxxxxx"];
  for (const n of names) {
    for (const v of values) {
      const form = g.one(["eq", "quoted", "yaml", "list"]);
      add("placeholder-assignment", form === "eq" ? `${n}=${v}` : form === "quoted" ? `${n} = "${v}"` : form === "yaml" ? `  ${n}: ${v}` : `      - ${n}=${v}`);
    }
  }
  const notValues = [
    'AUTH_TOKEN_HEADER = "X-Auth-Token"',
    'API_KEY_HEADER = "X-Api-Key"',
    'const TOKEN_ENV_VAR = "GITHUB_TOKEN";',
    'PASSWORD_FIELD = "password_confirmation"',
    'SECRET_NAME = "prod/db/credentials"',
    'api_key_param: "api_key"',
    "const token = req.headers.authorization;",
    "password_hash = bcrypt(password)",
    'tokenizer = "bert-base-uncased"',
    "DATABASE_URL=postgres://localhost:5432/app",
    "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app",
    "AMQP_URL=amqp://guest:guest@localhost:5672/",
    'url = f"postgresql://{user}:{password}@{host}/{db}"',
    'curl -u "$USER:$PASS" https://ci.acme.dev',
    "curl -u admin:${ADMIN_PASSWORD} https://ci.acme.dev",
    "redis://:${REDIS_PASSWORD}@cache:6379",
    "machine api.acme.dev login deploy password ${NETRC_PASSWORD}",
    "Authorization: Bearer <token>",
    "Authorization: Bearer YOUR_ACCESS_TOKEN_GOES_HERE",
    "Authorization: Bearer ${TOKEN}",
    "X-API-Key: ${API_KEY}",
    "Password=;Server=x",
    "kubeadm token create --print-join-command",
    "token: ${K8S_TOKEN}",
    '"auth": ""',
    "PrivateKey = <wg-private-key>",
    "AGE-SECRET-KEY-1...",
    "dsn: ${SENTRY_DSN}",
    "spring.datasource.password=${DB_PASSWORD}",
    "export AZURE_STORAGE_KEY=$(az storage account keys list -o tsv)",
    "export GITHUB_TOKEN=$(gh auth token)",
    "token = os.environ['API_TOKEN']",
    "secret = settings.SECRET_KEY",
    "password: !vault |",
    "TOKEN_TTL_SECONDS=3600",
    "MAX_TOKENS=4096",
    "SECRET_ROTATION_DAYS=90",
    "PASSWORD_MIN_LENGTH=12",
  ];
  for (const t of notValues) add("not-a-value", t);
  // Ordinary high-entropy strings that are no credential: hashes, ids, integrity strings, UUIDs, base64 text.
  for (let i = 0; i < 60; i++) {
    const kind = i % 6;
    if (kind === 0) add("git-sha", `commit ${g.pick(HEX, 40)}\nMerge: ${g.pick(HEX, 7)} ${g.pick(HEX, 7)}`);
    if (kind === 1) add("lockfile-integrity", `      "integrity": "sha512-${g.pick(B64, 86)}=="`, "package-lock.json");
    if (kind === 2) add("uuid", `request_id: ${g.pick(HEX, 8)}-${g.pick(HEX, 4)}-4${g.pick(HEX, 3)}-a${g.pick(HEX, 3)}-${g.pick(HEX, 12)}`);
    if (kind === 3) add("sha256", `sha256:${g.pick(HEX, 64)}  app.tar.gz`);
    if (kind === 4) add("base64-text", `data: ${Buffer.from(`hello ${g.pick(LOW, 12)} world, nothing secret in here at all`).toString("base64")}`);
    if (kind === 5) add("css-hash", `.c-${g.pick(LOW + DIG, 8)} { color: #${g.pick(HEX, 6)}; }`);
  }
  return L;
}

export function writeAgentLookAlikes(dir: string, seed: number): AgentLookAlike[] {
  const out: AgentLookAlike[] = [];
  for (const l of agentLookAlikes(seed)) {
    const file = `lookalikes/${String(out.length).padStart(3, "0")}-${l.kind}/${l.name ?? "f.txt"}`;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), l.text);
    out.push({ file, kind: l.kind });
  }
  return out;
}

/** Recall and precision of a tool's findings (the files it reported), per file of the corpus. */
export function score(plants: AgentPlant[], looks: AgentLookAlike[], reported: Set<string>): { found: number; recall: number; falsePositives: number; precision: number; missed: AgentPlant[]; noisy: AgentLookAlike[] } {
  const missed = plants.filter((p) => !reported.has(p.file));
  const noisy = looks.filter((l) => reported.has(l.file));
  const found = plants.length - missed.length;
  return { found, recall: found / plants.length, falsePositives: noisy.length, precision: found + noisy.length ? found / (found + noisy.length) : 1, missed, noisy };
}
