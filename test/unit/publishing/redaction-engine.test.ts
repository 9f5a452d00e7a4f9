import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile, loadConfigString, parseOrgRules, RuleConfigError } from "../../../src/publishing/redaction/config.ts";
import { compileRules, literalLed, scanText } from "../../../src/publishing/redaction/engine.ts";
import { maskLine, maskSecret } from "../../../src/publishing/redaction/mask.ts";
import { CHILD_HEAD_START, jobCountBySize, readShardList, splitBySize, splitShares, writeShardList } from "../../../src/publishing/redaction/shard.ts";
import { compileRe2, Re2Error, translateRe2 } from "../../../src/publishing/redaction/re2.ts";
import { ROOT } from "../../helpers/paths.ts";

// Secrets are assembled at run time so this file never holds one literally.
const AWS = `AKIA${"QZXW".repeat(4)}`;
const GH = `ghp_${"aB3dE5fG7h".repeat(4)}`;
const ANT = `sk-ant-${"api03Xy9Kq".repeat(3)}`;

const base = () => loadConfigFile(join(ROOT, "config", "gitleaks.toml"));

describe("RE2 check and translation", () => {
  const rejected: Array<[string, string]> = [
    ["foo(?=bar)", "lookaround"],
    ["(?<!x)y", "lookaround"],
    ["(?!x)y", "lookaround"],
    ["(a)\\1", "backreference"],
    ["(?<n>a)\\k<n>", "backreference"],
    ["a++", "possessive"],
    ["(?>ab)", "atomic"],
    ["\\uAC00", "not RE2 syntax"],
    ["a{2000}", "repeat count"],
    ["\\Z", "not RE2 syntax"],
  ];
  for (const [p, why] of rejected) {
    test(`rejects ${p}`, () => {
      expect(() => translateRe2(p)).toThrow(Re2Error);
      expect(() => translateRe2(p)).toThrow(why);
    });
  }
  test("translates RE2-only syntax to an equivalent JS RegExp", () => {
    expect(translateRe2("(?i)akia[0-9]+")).toEqual({ source: "akia[0-9]+", flags: "i" });
    expect(compileRe2("(?i)AKIA", "").test("akia")).toBe(true);
    expect(compileRe2("(?P<k>x)y", "").exec("xy")?.groups?.k).toBe("x");
    expect(compileRe2("[[:digit:]]+\\z", "").test("ab12")).toBe(true);
    expect(compileRe2("[[:digit:]]+\\z", "").test("12ab")).toBe(false);
    expect(compileRe2("\\p{Hangul}{2}", "").test("가나")).toBe(true);
    expect(compileRe2("\\x{AC00}", "").test("가")).toBe(true);
    expect(compileRe2("\\Qa.b\\E", "").test("axb")).toBe(false);
    expect(compileRe2("x(?i)y|z", "").test("Z")).toBe(true);
    expect(compileRe2("\\_x\\#", "").test("_x#")).toBe(true);
  });
});

describe("gitleaks config", () => {
  test("the committed config loads, every rule compiles and RE2 accepts all of them", () => {
    const set = base();
    expect(set.re2Rejected).toEqual([]);
    expect(set.rules.map((r) => r.id)).toEqual([
      "private_key",
      "aws_access_key",
      "aws_secret_key",
      "google_api_key",
      "azure_storage_key",
      "github_token",
      "github_fine_grained_token",
      "gitlab_token",
      "slack_token",
      "slack_app_token",
      "discord_webhook",
      "discord_bot_token",
      "stripe_key",
      "stripe_webhook_secret",
      "jwt",
      "npm_token",
      "pypi_token",
      "anthropic_key",
      "openai_sk",
      "huggingface_token",
      "gcp_oauth_client_secret",
      "aws_session_token",
      "aws_session_token_assignment",
      "azure_ad_client_secret",
      "atlassian_api_token",
      "databricks_token",
      "digitalocean_token",
      "dockerhub_token",
      "docker_config_auth",
      "doppler_token",
      "grafana_token",
      "heroku_api_key",
      "heroku_api_key_assignment",
      "kubeadm_bootstrap_token",
      "linear_api_key",
      "mailgun_key",
      "notion_token",
      "postman_api_key",
      "sendgrid_api_key",
      "sentry_token",
      "sentry_dsn",
      "shopify_token",
      "square_token",
      "terraform_cloud_token",
      "twilio_api_key",
      "vault_token",
      "age_secret_key",
      "wireguard_private_key",
      "telegram_bot_token",
      "url_credentials",
      "curl_user_password",
      "netrc_password",
      "pgpass_password",
      "auth_header",
      "connection_string_password",
      "bearer_token",
      "dotenv_export",
      "assignment_secret",
      "assignment_secret_unquoted",
      "env_assignment",
      "property_secret",
      "home_path",
      "internal_ip",
      "jira_hf",
      "slack_url",
      "internal_host",
    ]);
    const text = readFileSync(join(ROOT, "config", "gitleaks.toml"), "utf8");
    expect(text).toContain("GITLEAKS_CONFIG");
    for (const banned of ["person_", "company_", "org_"]) expect(text).not.toContain(banned);
  });

  test("a rule RE2 rejects is named by id; bad TOML names the line; bad schema names the field", () => {
    const set = loadConfigString("[[rules]]\nid = 'ok'\nregex = 'a'\n[[rules]]\nid = 'sneaky'\nregex = '''(?<=x)secret'''\n", "t.toml");
    expect(set.re2Rejected).toEqual(["sneaky"]);
    expect(() => loadConfigString("[[rules]]\nid = 'x'\nregex = \"\\d\"\n", "t.toml")).toThrow("t.toml: line 3: unrecognised escape sequence");
    expect(() => loadConfigString("[[rules]]\ndescription = 'no id'\n", "t.toml")).toThrow(RuleConfigError);
  });

  test("org rules: id|description|regex, unusable lines counted, RE2 rejects named, native script noticed", () => {
    const org = parseOrgRules(["# comment", "", "acme|Acme codename|acme-[a-z]+", "bad line without separators", "|no id|x(", "look|Lookahead|foo(?=bar)", "kr|Korean|사내[가-힣]+", "pipes|Regex with pipes|a|b"].join("\n"));
    expect(org.considered).toBe(6);
    expect(org.unusable).toBe(2);
    expect(org.re2Rejected).toEqual(["look"]);
    expect(org.rules.map((r) => r.id)).toEqual(["acme", "kr", "pipes"]);
    expect(org.rules.find((r) => r.id === "kr")!.nativeScript).toBe(true);
    expect(org.rules.find((r) => r.id === "pipes")!.regex!.test("b")).toBe(true);
    expect(parseOrgRules("|desc|abc").rules[0]!.id).toBe("org_rule_1");
  });
});

describe("engine", () => {
  const c = () => {
    const s = base();
    return compileRules(s.rules, s.allowlists);
  };
  test("finds, masks and numbers lines; placeholders and allowlisted paths stay quiet", () => {
    const text = `line one\nconst k = "${AWS}";\nuse ${GH} here\nkey ${ANT}\nAKIAIOSFODNN7EXAMPLE is the docs key\n/Users/dev/ok and /Users/alice/x\n`;
    const f = scanText(c(), "src/a.ts", text);
    expect(f.map((x) => [x.line, x.rule])).toEqual([
      [2, "aws_access_key"],
      [3, "github_token"],
      [4, "anthropic_key"],
      [6, "home_path"],
    ]);
    expect(f[0]!.snippet).toBe('const k = "AKIA****************";');
    expect(f[1]!.snippet).toBe("use gh?_******** here");
    expect(f[2]!.snippet).toBe("key sk-ant-********");
    expect(f[3]!.snippet).toBe("/Users/dev/ok and /Users/********/x");
    for (const x of f) for (const s of [AWS, GH, ANT, "alice"]) expect(x.snippet).not.toContain(s);
    expect(scanText(c(), "fixtures/redaction/x.txt", text)).toEqual([]);
  });

  test("a placeholder word inside a random key body does not hide the key; the word alone still does", () => {
    const head = ["-----BEGIN ENCRYPTED ", "PRIVATE KEY-----"].join("");
    const tail = ["-----END ENCRYPTED ", "PRIVATE KEY-----"].join("");
    const body = ["HP31ytrCV8vMdwbATOdos9m8zsUnb0l6AD8+Uz9DiE24VrRMXpS0XKb/I4rq0c+f", "RV38vofISuqQ/bkKPpG1YhxfGcYdhOprofnjMUwIOb1aZIRqZj3qJMpve+JQjx4J"].join("\n");
    expect(scanText(c(), "k.pem", `${head}\n${body}\n${tail}\n`).map((x) => x.rule)).toEqual(["private_key"]);
    expect(scanText(c(), "a", `password = "TODO-set-me-later"`)).toEqual([]);
  });

  test("gitleaks:allow on the line, keywords gate, secretGroup picks the value", () => {
    expect(scanText(c(), "a", `k = "${AWS}" # gitleaks:allow`)).toEqual([]);
    const f = scanText(c(), "a", `password = "Zq8#mPw2vL"`);
    expect(f.map((x) => x.rule)).toEqual(["assignment_secret"]);
    expect(f[0]!.snippet).toBe('password = "********"');
    const kw = loadConfigString("[[rules]]\nid = 'k'\nregex = '''[0-9]{6}'''\nkeywords = ['pin']\n", "t");
    const ck = compileRules(kw.rules, kw.allowlists);
    expect(scanText(ck, "a", "code 123456")).toEqual([]);
    expect(scanText(ck, "a", "PIN 123456").length).toBe(1);
  });

  test("allowlist regexTarget, stopwords, AND condition, entropy", () => {
    const cfg = loadConfigString(
      ["[[rules]]", "id = 'tok'", "regex = '''tok_([a-z0-9]{8})'''", "entropy = 2.0", "[[rules.allowlists]]", "stopwords = ['aaaa']", "[[rules.allowlists]]", "condition = 'AND'", "regexTarget = 'line'", "regexes = ['''SAFE''']", "paths = ['''^docs/''']"].join(
        "\n",
      ),
      "t",
    );
    const cc = compileRules(cfg.rules, cfg.allowlists);
    expect(scanText(cc, "src/x", "tok_k3j9x2p1").length).toBe(1);
    expect(scanText(cc, "src/x", "tok_aaaabbbb")).toEqual([]); // stopword
    expect(scanText(cc, "src/x", "tok_11111111")).toEqual([]); // entropy 0
    expect(scanText(cc, "docs/x", "tok_k3j9x2p1 SAFE")).toEqual([]); // AND: path and line
    expect(scanText(cc, "src/x", "tok_k3j9x2p1 SAFE").length).toBe(1); // AND: only the line
  });

  test("literal-led detection", () => {
    expect(literalLed(/AKIA[0-9]/g)).toBe(true);
    expect(literalLed(/\b(?:AKIA|ASIA)x/g)).toBe(true);
    expect(literalLed(/a*b/g)).toBe(false);
    expect(literalLed(/[a-z]+x/g)).toBe(false);
    expect(literalLed(/akia/gi)).toBe(false);
  });
});

describe("masking", () => {
  test("known prefixes are kept, everything else hidden; generic masks catch unreported tokens", () => {
    expect(maskSecret(AWS)).toBe("AKIA****************");
    expect(maskSecret("sk-abcdefghijklmnopqrstuvwxyz")).toBe("sk-********");
    expect(maskSecret("Bearer abc.def")).toBe("Bearer ********");
    expect(maskSecret("acme-secret-project")).toBe("********");
    expect(maskLine(`a ${AWS} b ${GH}`, [{ start: 2, end: 22, rule: "aws" }])).toBe("a AKIA**************** b gh?_********");
    expect(maskLine(`x = "hunter2hunter2"`, [])).toBe('x ="***"');
    const long = `${"y".repeat(300)} ${AWS} ${"z".repeat(300)}`;
    const m = maskLine(long, [{ start: 301, end: 321, rule: "aws" }]);
    expect(m.length).toBe(160);
    expect(m).toContain("AKIA****");
  });
});

describe("--engine gitleaks merged config", () => {
  test("org rules are appended to an [extend] of the base config; the result parses back", async () => {
    const { mergedConfig } = await import("../../../src/publishing/redaction/gitleaks.ts");
    const { parseToml } = await import("../../../src/lib/toml.ts");
    const { mkdtempSync, readFileSync: read } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "mogui-merge-"));
    const org = parseOrgRules("codename|Project \"X\"|acme-[a-z]+\ntriple|Has quotes|a'''b\n");
    const path = mergedConfig(dir, { set: base(), configName: "built-in", configPath: null, orgRules: org.rules, orgConsidered: 2, orgUnusable: 0 });
    const doc = parseToml(read(path, "utf8")) as { extend: { path: string }; rules: Array<{ id: string; description: string; regex: string }> };
    expect(doc.extend.path).toBe(join(dir, "base.toml"));
    expect(doc.rules).toEqual([
      { id: "codename", description: "Project X", regex: "acme-[a-z]+" },
      { id: "triple", description: "Has quotes", regex: "a'''b" },
    ]);
    expect(read(join(dir, "base.toml"), "utf8")).toBe(read(join(ROOT, "config", "gitleaks.toml"), "utf8"));
  });
});

test("a rule with a path and no regex reports the file itself", () => {
  const set = loadConfigString("[[rules]]\nid = 'pem_file'\ndescription = 'Key file'\npath = '''\\.pem$'''\n", "t");
  const c = compileRules(set.rules, set.allowlists);
  expect(scanText(c, "keys/server.pem", "anything")).toEqual([
    { file: "keys/server.pem", line: 1, column: 1, rule: "pem_file", description: "Key file", match: "", snippet: "(the file name matches)", fingerprint: expect.stringMatching(/^keys\/server\.pem:pem_file:[0-9a-f]{16}:1$/) },
  ]);
  expect(scanText(c, "keys/server.txt", "anything")).toEqual([]);
});

test("a share's file list reads back exactly (odd names: blanks, line breaks, tabs, non-ASCII); a damaged one is refused", async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "mogui-share-"));
  try {
    const files = [
      { abs: "/r/a b.txt", shown: "a b.txt", regular: true as const },
      { abs: "/r/line\nbreak\tand tab", shown: "line\nbreak\tand tab" },
      { abs: "/r/é/ü.md", shown: "é/ü.md", regular: true as const },
    ];
    const list = join(dir, "share.list");
    writeShardList(list, files);
    expect(readShardList(list)).toEqual(files);
    writeShardList(list, []);
    expect(readShardList(list)).toEqual([]);
    writeFileSync(list, "/r/a\0a\0");
    expect(() => readShardList(list)).toThrow("shard list is malformed");
    writeFileSync(list, "/r/a\0a\0x\0");
    expect(() => readShardList(list)).toThrow("shard list is malformed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("shares: contiguous slices in order covering every file once; this process's share leads by at most a tenth", () => {
  for (const [n, jobs] of [
    [2000, 2],
    [20000, 2],
    [20001, 3],
    [4999, 8],
    [10, 4],
  ] as const) {
    const files = Array.from({ length: n }, (_, i) => i);
    const shares = splitShares(files, jobs);
    expect(shares).toHaveLength(jobs);
    expect(shares.flat()).toEqual(files);
    const even = n / jobs;
    expect(shares[0]!.length).toBeGreaterThanOrEqual(Math.floor(even));
    expect(shares[0]!.length).toBeLessThanOrEqual(Math.ceil(even) + Math.min(CHILD_HEAD_START, even / 10));
  }
});

test("a few large files are split by bytes: contiguous, none empty, about equal", () => {
  const MB = 1024 * 1024;
  expect(jobCountBySize({ env: {} }, [2 * MB, 2 * MB])).toBe(1);
  expect(jobCountBySize({ env: { MOGUI_SCAN_JOBS: "4" } }, Array(15).fill(2 * MB))).toBe(3);
  expect(jobCountBySize({ env: { MOGUI_SCAN_JOBS: "8" } }, [40 * MB, 40 * MB])).toBe(2);
  expect(jobCountBySize({ env: { MOGUI_SCAN_JOBS: "1" } }, [40 * MB, 40 * MB])).toBe(1);
  for (const [sizes, jobs] of [
    [Array(15).fill(2), 2],
    [[30, 1, 1], 2],
    [[1, 1, 30], 2],
    [[5, 5, 5, 5, 5, 5, 5], 3],
    [[1, 2, 3], 3],
  ] as Array<[number[], number]>) {
    const files = sizes.map((_, i) => i);
    const shares = splitBySize(files, sizes, jobs);
    expect(shares).toHaveLength(jobs);
    expect(shares.flat()).toEqual(files);
    for (const s of shares) expect(s.length).toBeGreaterThan(0);
  }
  const shares = splitBySize(
    Array.from({ length: 15 }, (_, i) => i),
    Array(15).fill(2),
    2,
  );
  expect(shares.map((s) => s.length)).toEqual([8, 7]);
});

test("leading literals read off a group of alternatives; own gates search a cover of them", async () => {
  const { leadingLiterals, coverOf } = await import("../../../src/publishing/redaction/engine.ts");
  expect(leadingLiterals(/\b(?:glsa_[A-Za-z0-9]{32}|glc_[A-Za-z0-9+/]{32,400})/g)).toEqual(["glsa_", "glc_"]);
  expect(leadingLiterals(/\b(?:EAAA[A-Za-z0-9_-]{22,60}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60})/g)).toEqual(["EAAA", "sq0atp-", "sq0csp-"]);
  expect(leadingLiterals(/(?:ab[0-9]|[a-z]x)/g)).toBeNull();
  expect(leadingLiterals(/(?:ab[0-9]|cd)?x/g)).toBeNull();
  expect(coverOf(["sntryu_", "sntrys_eyJ"])).toEqual(["sntry"]);
  expect(coverOf(["EAAA", "sq0atp-", "sq0csp-"])).toEqual(["EAAA", "sq0"]);
  expect(coverOf(["sk-ant-", "sk-", "x"])).toEqual(["sk-", "x"]);
});
