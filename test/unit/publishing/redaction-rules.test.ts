/**
 * Every embedded rule (config/gitleaks.toml) has a positive and a negative case, and the rule file passes the RE2
 * check (D28). Secrets are assembled at run time from fragments.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfigFile } from "../../../src/publishing/redaction/config.ts";
import { base64Runs, decodeBase64Text, recoverUtf16Text, unescapeJson } from "../../../src/publishing/redaction/decode.ts";
import { compileRules, scanText, scanTextBounded } from "../../../src/publishing/redaction/engine.ts";
import { prefilterOf } from "../../../src/publishing/redaction/literals.ts";
import { Gen, noPrefilter, rng, secretMakers } from "../../helpers/redaction-corpus.ts";
import { ROOT } from "../../helpers/paths.ts";

const set = loadConfigFile(join(ROOT, "config", "gitleaks.toml"));
const c = compileRules(set.rules, set.allowlists);
const g = new Gen(rng(7));
const rulesOf = (text: string, path = "src/x.txt") => [...new Set(scanText(c, path, text.replace(/\\n/g, "\n")).map((f) => f.rule))].sort();

const BEGIN = (k: string) => `-----BEGIN ${k}PRIV${"ATE"} KEY-----`;
const END = (k: string) => `-----END ${k}PRIV${"ATE"} KEY-----`;
const body = () => Array.from({ length: 4 }, () => g.mixed(64, "+/"));

/** [rule, positive text, negative text]: the positive must be reported by that rule, the negative by none. */
const CASES: Array<[string, () => string, string]> = [
  ["private_key", () => [BEGIN("RSA "), ...body(), END("RSA ")].join("\n"), "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"],
  ["aws_access_key", () => `id = ${"AK" + "IA"}${g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`, `id = ${"AK" + "IA"}IOSFODNN7EXAMPLE`],
  ["aws_secret_key", () => `aws_secret_access_key = ${g.mixed(40, "/+")}`, "aws_region = eu-west-1"],
  ["google_api_key", () => `key=${"AI" + "za"}Sy${g.mixed(33, "_-")}`, `key=${"AI" + "za"}Sy${"X".repeat(33)}`],
  ["azure_storage_key", () => `AccountName=a;AccountKey=${g.mixed(86, "+/")}==;EndpointSuffix=x`, "AccountKey=short=="],
  ["github_token", () => `t ${"gh" + "p_"}${g.checksummed()}`, `t ${"gh" + "p_"}${g.mixed(30)}AAAAAA`],
  ["github_fine_grained_token", () => `t ${"github" + "_pat_"}${g.mixed(22)}_${g.mixed(59)}`, "see github_pat_ in the docs"],
  ["gitlab_token", () => `t ${"gl" + "pat-"}${g.mixed(20)}`, `t ${"gl" + "pat-"}${"x".repeat(20)}`],
  ["slack_token", () => `t ${"xo" + "xb-"}${g.pick("0123456789", 11)}-${g.mixed(24)}`, "t xoxb-your-token"],
  ["slack_app_token", () => `t ${"xa" + "pp-"}1-A${g.pick("ABCDEFGHIJ0123456789", 10)}-${g.pick("0123456789", 13)}-${g.mixed(40)}`, "t xapp-1-short"],
  ["discord_webhook", () => `${"https://discord" + ".com/api/webhooks/"}${g.pick("0123456789", 18)}/${g.mixed(68, "_-")}`, "https://discord.com/api/webhooks/123/abc"],
  ["discord_bot_token", () => `DISCORD_BOT_TOKEN=${g.mixed(24)}.${g.mixed(6)}.${g.mixed(38, "_-")}`, "discord_channel = general"],
  ["stripe_key", () => `k ${"sk" + "_live_"}${g.mixed(24)}`, `k ${"sk" + "_test_"}${g.mixed(24)}`],
  ["stripe_webhook_secret", () => `k ${"wh" + "sec_"}${g.mixed(32)}`, "k whsec_short"],
  ["jwt", () => `t ${"ey" + "J"}hbGciOiJIUzI1NiJ9.${"ey" + "J"}${g.mixed(30)}.${g.mixed(43, "_-")}`, "t eyJhbGciOiJIUzI1NiJ9 alone"],
  ["npm_token", () => `//registry.npmjs.org/:_authToken=${"np" + "m_"}${g.checksummed()}`, `npm_config_cache=/tmp/x ${"np" + "m_"}${g.mixed(30)}zzzzzz`],
  ["pypi_token", () => `password = ${"py" + "pi-"}AgEIcHlwaS5vcmc${g.mixed(60, "_-")}`, "pypi-AgE short"],
  ["anthropic_key", () => `k ${"sk" + "-ant-"}api03-${g.mixed(60, "_-")}`, "k sk-ant-short"],
  ["openai_sk", () => `k ${"sk" + "-proj-"}${g.mixed(48, "_-")}`, `k ${"sk" + "-test-"}${g.mixed(30)}`],
  ["bearer_token", () => `Authorization: Bearer ${g.mixed(40)}`, "Authorization: Bearer <token>"],
  ["assignment_secret", () => `db_password = "${g.mixed(16, "#!")}"`, 'password = "changeme"'],
  ["assignment_secret_unquoted", () => `DB_PASSWORD=${g.mixed(16, "#!")}`, "const token = req.headers.authorization;"],
  ["dotenv_export", () => `export SERVICE_TOKEN=${g.mixed(16, "#!")}`, "export SERVICE_TOKEN=$OTHER"],
  ["home_path", () => `log at /Users/${g.pick("abcdefgh", 6)}/x`, "log at /Users/dev/x"],
  ["internal_ip", () => "host 10.1.2.3", "host 8.8.8.8"],
  ["jira_hf", () => "see HF-1234", "see HF-1"],
  ["slack_url", () => `${"https://hooks.slack" + ".com/services/"}T${g.mixed(8)}/B${g.mixed(10)}/${g.mixed(24)}`, "https://slack.com/help"],
  ["internal_host", () => "db01.corp", "localhost.local"],
  // Issue 25's format rules: the token stands alone, no credential-like name beside it.
  ["huggingface_token", () => `see ${"h" + "f_"}${g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34)} here`, `see ${"h" + "f_"}${"x".repeat(34)} here`],
  ["gcp_oauth_client_secret", () => `s ${"GOC" + "SPX-"}${g.mixed(28, "_-")}`, "s GOCSPX-short"],
  ["aws_session_token", () => `t ${"IQoJb3Jp" + "Z2luX2Vj"}${g.mixed(300, "/+")}`, "t IQoJb3JpZ2lu short"],
  ["aws_session_token_assignment", () => `aws_session_token = ${g.mixed(200, "/+")}`, "aws_session_token = ${AWS_SESSION_TOKEN}"],
  ["azure_ad_client_secret", () => `secret ${g.pick("abcXYZ", 3)}8Q~${g.mixed(34, "_~.")} end`, "see Q~ in the docs"],
  ["atlassian_api_token", () => `t ${"ATAT" + "T3"}xFfGF0${g.mixed(180, "_-")}`, "t ATATT3 short"],
  ["databricks_token", () => `t ${"da" + "pi"}${g.pick("0123456789abcdef", 31)}9`, `t ${"da" + "pi"}${"0".repeat(32)}`],
  ["digitalocean_token", () => `t ${"do" + "p_v1_"}${g.pick("0123456789abcdef", 63)}9`, `t ${"do" + "p_v1_"}${"a".repeat(64)}`],
  ["dockerhub_token", () => `t ${"dc" + "kr_pat_"}${g.mixed(27, "_-")}`, `t ${"dc" + "kr_pat_"}${"x".repeat(27)}`],
  ["docker_config_auth", () => `{"auths": {"r": {"auth": "${Buffer.from(`u:${g.mixed(16)}`).toString("base64")}"}}}`, '{"auths": {"r": {"auth": ""}}}'],
  ["doppler_token", () => `t ${"dp" + ".pt."}${g.mixed(43)}`, `t ${"dp" + ".pt."}${"x".repeat(43)}`],
  ["grafana_token", () => `t ${"gl" + "sa_"}${g.mixed(32)}_${g.pick("0123456789abcdef", 8)}`, "t glsa_short"],
  ["heroku_api_key", () => `t ${"HR" + "KU-"}AA${g.mixed(58, "_-")}`, "t HRKU-short"],
  ["heroku_api_key_assignment", () => `heroku_api_key: ${g.pick("0123456789abcdef", 8)}-${g.pick("0123456789abcdef", 4)}-4abc-a123-${g.pick("0123456789abcdef", 12)}`, "heroku_app: my-app"],
  ["kubeadm_bootstrap_token", () => `kubeadm join x:6443 --token ${g.pick("abcdefghij0123456789", 6)}.${g.pick("abcdefghij0123456789", 16)}`, "kubeadm token create --print-join-command"],
  ["linear_api_key", () => `t ${"lin" + "_api_"}${g.mixed(40)}`, `t ${"lin" + "_api_"}${"x".repeat(40)}`],
  ["mailgun_key", () => `t ${"ke" + "y-"}${g.pick("0123456789abcdef", 31)}7`, `t ${"ke" + "y-"}${"0".repeat(32)}`],
  ["notion_token", () => `t ${"nt" + "n_"}${g.pick("0123456789", 11)}${g.mixed(35)}`, "t secret_key_base"],
  ["postman_api_key", () => `t ${"PM" + "AK-"}${g.pick("0123456789abcdef", 24)}-${g.pick("0123456789abcdef", 34)}`, "t PMAK-short"],
  ["sendgrid_api_key", () => `t ${"S" + "G."}${g.mixed(22, "_-")}.${g.mixed(43, "_-")}`, "t SG.short.x"],
  ["sentry_token", () => `t ${"sntr" + "yu_"}${g.pick("0123456789abcdef", 63)}1`, "t sntryu_short"],
  ["sentry_dsn", () => `dsn: https://${g.pick("0123456789abcdef", 31)}2@o123.ingest.sen${"try"}.io/456`, "dsn: https://examplePublicKey@o0.ingest.sentry.io/0"],
  ["shopify_token", () => `t ${"shp" + "at_"}${g.pick("0123456789abcdef", 31)}3`, "t shpat_short"],
  ["square_token", () => `t ${"sq0" + "csp-"}${g.mixed(43, "_-")}`, "t sq0csp-short"],
  ["terraform_cloud_token", () => `token = "${g.mixed(14)}.${"atlas" + "v1"}.${g.mixed(67, "_-")}"`, "see atlasv1 docs"],
  ["twilio_api_key", () => `t ${"S" + "K"}${g.pick("0123456789abcdef", 31)}4`, `t ${"S" + "K"}${"0".repeat(32)}`],
  ["vault_token", () => `t ${"hv" + "s."}${g.mixed(90, "_-")}`, "t hvs.short"],
  ["age_secret_key", () => `${"AGE-SEC" + "RET-KEY-1"}${g.pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)}`, "AGE-SECRET-KEY-1..."],
  ["wireguard_private_key", () => `[Interface]\nPrivateKey = ${g.mixed(42, "+/")}E=`, "PrivateKey = <wg-private-key>"],
  ["telegram_bot_token", () => `bot = Bot("${g.pick("123456789", 10)}:AA${g.mixed(33, "_-")}")`, "time 12:AAx"],
  ["url_credentials", () => `DATABASE_URL=postgres://app:${g.mixed(16)}@db.acme.dev:5432/app`, "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app"],
  ["curl_user_password", () => `curl -fsS -u deploy:${g.mixed(14)} https://ci.acme.dev`, 'curl -u "$USER:$PASS" https://ci.acme.dev'],
  ["netrc_password", () => `machine api.acme.dev\n  login deploy\n  password ${g.mixed(20)}`, "machine learning is a field"],
  ["pgpass_password", () => `db.acme.dev:5432:app:app_user:${g.mixed(18)}`, "# host:port:db:user:password"],
  ["auth_header", () => `curl -H "X-API-Key: ${g.mixed(32)}" https://api.acme.dev`, "X-API-Key: ${API_KEY}"],
  ["connection_string_password", () => `Server=tcp:sql,1433;User ID=app;Password=${g.mixed(16)};Encrypt=true;`, "Password=;Server=x"],
  ["env_assignment", () => `{"content": "run it: POSTGRES_PASSWORD=${g.mixed(16)} docker compose up"}`, "TOKEN_TTL_SECONDS=3600 and PASSWORD_MIN_LENGTH=12"],
  ["property_secret", () => `cat app.properties: spring.datasource.password=${g.mixed(16)} ok`, "spring.datasource.password=${DB_PASSWORD}"],
];

describe("every embedded rule: a positive and a negative case", () => {
  test("the rule file passes the RE2 check and every rule is covered here", () => {
    expect(set.re2Rejected).toEqual([]);
    expect(CASES.map((x) => x[0]).sort()).toEqual(set.rules.map((r) => r.id).sort());
  });
  test("every rule has keywords and its regex yields required literals (the prefilter stays exact and fast)", () => {
    for (const r of set.rules) {
      expect(r.keywords.length).toBeGreaterThan(0);
      expect(prefilterOf(r.regex!).factors.length + (r.keywords.length ? 1 : 0)).toBeGreaterThan(0);
    }
  });
  for (const [id, pos, neg] of CASES) {
    test(id, () => {
      const path = id === "pgpass_password" ? "home/.pgpass" : "src/x.txt";
      expect(rulesOf(pos(), path)).toContain(id);
      expect(rulesOf(neg, path)).toEqual([]);
    });
  }
});

describe("D34: allowlists judge the secret, not the line", () => {
  const tok = () => `${"gh" + "p_"}${g.checksummed()}`;
  test("a placeholder word elsewhere on the line hides nothing", () => {
    expect(rulesOf(`GITHUB_TOKEN=${tok()} # TODO rotate`)).toEqual(["github_token"]);
    expect(rulesOf(`curl -H 'Authorization: token ${tok()}' https://api.example.com/user`)).toEqual(["github_token"]);
    expect(rulesOf(`example.com placeholder changeme ${"AK" + "IA"}${g.pick("ABCDEFGHJK", 16)}`)).toEqual(["aws_access_key"]);
  });
  test("placeholder values stay quiet whatever the name", () => {
    for (const v of ["changeme", "<password>", "${DB_PASSWORD}", "your-api-key-here", "REDACTED", "xxxxxxxxxx", "process.env.SECRET"]) {
      expect(rulesOf(`db_password = "${v}"`)).toEqual([]);
      expect(rulesOf(`DB_PASSWORD=${v}`)).toEqual([]);
    }
  });
  test("a user's regexTarget = line is honoured as written", async () => {
    const { loadConfigString } = await import("../../../src/publishing/redaction/config.ts");
    const user = loadConfigString("[[rules]]\nid = 't'\nregex = '''tok_[a-z0-9]{8}'''\n[allowlist]\nregexTarget = 'line'\nregexes = ['''SAFE''']\n", "u.toml");
    const cu = compileRules(user.rules, user.allowlists);
    expect(scanText(cu, "a", "tok_k3j9x2p1 SAFE")).toEqual([]);
    expect(scanText(cu, "a", "tok_k3j9x2p1").length).toBe(1);
  });
  test("the embedded rules never use regexTarget = line", async () => {
    const text = await Bun.file(join(ROOT, "config", "gitleaks.toml")).text();
    expect(text).not.toMatch(/regexTarget\s*=\s*"line"/);
    expect([...set.allowlists, ...set.rules.flatMap((r) => r.allowlists)].every((a) => a.regexTarget !== "line")).toBe(true);
  });
});

describe("masking of whole secrets", () => {
  test("a multi-line, one-line or JSON-escaped private key is masked whole", () => {
    const lines = body();
    for (const text of [[BEGIN("RSA "), ...lines, END("RSA ")].join("\n"), `k: ${[BEGIN("EC "), ...lines, END("EC ")].join(" ")} tail`, `{"k":"${[BEGIN("RSA "), ...lines, END("RSA ")].join("\\n")}","n":1}`]) {
      const f = scanText(c, "k.txt", text);
      expect(f.map((x) => x.rule)).toEqual(["private_key"]);
      for (const l of lines) for (let i = 0; i + 8 <= l.length; i += 4) expect(JSON.stringify(f)).not.toContain(l.slice(i, i + 8));
    }
  });
  test("the same span found by two rules is one finding (the specific rule)", () => {
    const f = scanText(c, "a", `API_TOKEN=${"gh" + "p_"}${g.checksummed()}`);
    expect(f.map((x) => x.rule)).toEqual(["github_token"]);
    expect(f[0]!.column).toBe(11);
    expect(f[0]!.match).toBe("gh?_********");
  });
});

describe("decoding", () => {
  test("JSON escapes are decoded in place; line numbers are kept", () => {
    expect(unescapeJson('a\\nb\\u002dc\\"d\\\\n')).toBe('a b-c"d\\n');
    expect(unescapeJson("plain")).toBe("plain");
    const slack = `${"xo" + "xb"}\\u002d${g.pick("0123456789", 11)}\\u002d${g.mixed(24)}`;
    const f = scanText(c, "a.json", `{\n"a": 1,\n"s": "${slack}"\n}`);
    expect(f.map((x) => [x.rule, x.line])).toEqual([["slack_token", 3]]);
  });
  test("base64 runs of 20+ characters are decoded and scanned once; the finding says so", () => {
    const tok = `${"gh" + "p_"}${g.checksummed()}`;
    const once = Buffer.from(`token ${tok}`).toString("base64");
    const f = scanText(c, "a", `line one\ndata: ${once}\n`);
    expect(f.map((x) => [x.rule, x.line, x.decoded])).toEqual([["github_token", 2, "base64"]]);
    expect(f[0]!.snippet).toBe("data: ********");
    const twice = Buffer.from(`inner ${once}`).toString("base64");
    expect(scanText(c, "a", twice)).toEqual([]);
    const deep = compileRules(set.rules, set.allowlists, { decodeDepth: 2 });
    expect(scanText(deep, "a", twice).map((x) => x.rule)).toEqual(["github_token"]);
    expect(scanText(compileRules(set.rules, set.allowlists, { decodeDepth: 0 }), "a", once)).toEqual([]);
  });
  test("base64 runs: maximal, with padding; binary and identifiers are not text", () => {
    expect(base64Runs("x QUJDREVGR0hJSktMTU5PUFFSUw== y")).toEqual([{ start: 2, end: 30 }]);
    expect(decodeBase64Text("QUJDREVGR0hJSktMTU5PUFFSUw==")).toBe("ABCDEFGHIJKLMNOPQRS");
    expect(decodeBase64Text(Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]).toString("base64"))).toBeNull();
    expect(decodeBase64Text("thisIsALongFunctionName")).toBeNull();
  });
  test("UTF-16 read through git: ASCII content recovered", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("key AB", "utf16le")]).toString("utf8");
    expect(recoverUtf16Text(le)).toBe("key AB");
    expect(recoverUtf16Text("plain")).toBeNull();
  });
});

test("bounded: at most `budget` findings are rendered, the rest counted; skip drops fingerprints", () => {
  const text = Array.from({ length: 50 }, () => `k ${"AK" + "IA"}${g.pick("ABCDEFGHJK", 16)}`).join("\n");
  const r = scanTextBounded(c, "a", text, 10);
  expect(r.findings.length).toBe(10);
  expect(r.more).toBe(40);
  expect(r.findings.map((f) => f.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const s = scanTextBounded(c, "a", text, 100, (rule, line) => rule === "aws_access_key" && line <= 5);
  expect([s.findings.length, s.suppressed, s.findings[0]!.line]).toEqual([45, 5, 6]);
});

test("equivalence (property, seeded): the prefilters (lead gates, literal gates) change no finding", () => {
  const seed = Number(process.env.REDACTION_EQUIV_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`prefilter equivalence seed ${seed} (REDACTION_EQUIV_SEED)`);
  const q = new Gen(rng(seed));
  // The reference: gitleaks' semantics with no prefilter at all (every regex over every text, keywords checked).
  const plain = noPrefilter(c);
  const makers = secretMakers(q);
  const leads = c.steps.filter((s) => s.direct).flatMap(({ rule: r }) => (r.regex!.source.replace(/^\\b/, "").match(/^[A-Za-z_/-]{1,6}/) ?? []).map(String));
  const bits = () => q.one([() => makers[Math.floor(q.r() * makers.length)]!().value, () => q.one(leads) + q.mixed(40, "_-"), () => q.pick("xX_ -=:\"'\n", 2), () => q.one(leads), () => q.mixed(12)]);
  let found = 0;
  for (let n = 0; n < 400; n++) {
    let text = "";
    for (let k = 1 + Math.floor(q.r() * 8); k > 0; k--) text += bits()() + q.one([" ", "\n", "=", "_", "x", ": ", '"']);
    const got = scanText(c, "f.txt", text);
    expect(got).toEqual(scanText(plain, "f.txt", text));
    found += got.length;
  }
  expect(found).toBeGreaterThan(200);
});

test("content fingerprints: a moved line keeps its fingerprint, repeats are numbered, the secret never appears", () => {
  const a = `k ${"AK" + "IA"}${g.pick("ABCDEFGHJK", 16)}`;
  const b = `k ${"AK" + "IA"}${g.pick("ABCDEFGHJK", 16)}`;
  const before = scanText(c, "f", [a, "x", b, a].join("\n")).map((f) => f.fingerprint);
  const after = scanText(c, "f", ["y", "y", b, "x", a, a].join("\n")).map((f) => f.fingerprint);
  expect(before).toHaveLength(3);
  expect(before[0]).toMatch(/^f:aws_access_key:[0-9a-f]{16}:1$/);
  expect(before[2]).toBe(before[0]!.replace(/:1$/, ":2"));
  expect(new Set(after)).toEqual(new Set(before));
  for (const fp of before) expect(fp.includes(a.slice(2, 10))).toBe(false);
  // A skip sees the content fingerprint (and the rule and line of the older form).
  const s = scanTextBounded(c, "f", ["y", b, a].join("\n"), 100, (_rule, _line, content) => content === before[1]);
  expect([s.findings.length, s.suppressed]).toEqual([1, 1]);
});

test("base64Runs (probing every 20th character) equals a plain regex walk (property, seeded)", () => {
  const seed = Number(process.env.REDACTION_B64_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`base64Runs property seed ${seed} (REDACTION_B64_SEED)`);
  const r = rng(seed);
  const ref = (text: string) => {
    const out: Array<{ start: number; end: number }> = [];
    const re = /[A-Za-z0-9+/_-]+/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const e = m.index + m[0].length;
      let end = e;
      while (end < text.length && end - e < 2 && text[end] === "=") end++;
      if (m[0].length >= 20) out.push({ start: m.index, end });
    }
    return out;
  };
  const alpha = ["a", "Z", "9", "+", "/", "-", "_", "=", " ", "\n", ".", "é"];
  for (let k = 0; k < 3000; k++) {
    let s = "";
    const n = Math.floor(r() * 160);
    for (let i = 0; i < n; i++) s += r() < 0.85 ? alpha[Math.floor(r() * 7)] : alpha[7 + Math.floor(r() * 5)];
    expect(base64Runs(s)).toEqual(ref(s));
  }
});

test("leading literals of literal-led rules (the shared first-character gates)", async () => {
  const { leadingLiterals } = await import("../../../src/publishing/redaction/engine.ts");
  const { compileRe2 } = await import("../../../src/publishing/redaction/re2.ts");
  const lead = (p: string) => leadingLiterals(compileRe2(p, "g"));
  expect(lead("\\bgh[pousr]_[A-Za-z0-9]{20,}")).toEqual(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]);
  expect(lead("\\b(?:AKIA|ASIA)[0-9A-Z]{16}")).toEqual(["AKIA", "ASIA"]);
  expect(lead("\\bgl(?:pat|dt)-x")).toEqual(["glpat-x", "gldt-x"]);
  expect(lead("ab?c")).toEqual(["a"]);
  expect(lead("(?:ab|cd)?x")).toBeNull();
  expect(lead("[a-z]+x")).toBeNull();
  expect(lead("(?i)akia")).toBeNull();
  for (const r of set.rules) {
    const leads = leadingLiterals(r.regex!);
    if (!leads) continue;
    for (const [id, pos] of CASES)
      if (id === r.id)
        for (let k = 0; k < 5; k++) {
          const text = pos();
          const m = new RegExp(r.regex!.source, r.regex!.flags.replace("g", "")).exec(text);
          if (m) expect(leads.some((l) => m[0].startsWith(l))).toBe(true);
        }
  }
});

describe("issue 25: checksums, dummies, percent-encoding, double escapes, masking every secret-like run", () => {
  test("GitHub/npm checksums: GitHub's published example verifies; a wrong checksum is quiet for every rule", async () => {
    const { checksumValid, badChecksumToken } = await import("../../../src/publishing/redaction/checksum.ts");
    expect(checksumValid("gh" + "p_zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ0mLq17")).toBe(true);
    expect(checksumValid("gh" + "p_zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ0mLq18")).toBe(false);
    expect(badChecksumToken("gh" + "p_zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ0mLq18")).toBe(true);
    const bad = `${"gh" + "p_"}${g.mixed(30)}QQQQQQ`;
    expect(rulesOf(`GITHUB_TOKEN=${bad}`)).toEqual([]);
    expect(rulesOf(`GITHUB_TOKEN=${"gh" + "p_"}${g.checksummed()}`)).toEqual(["github_token"]);
  });
  test("all-same and counting tails are look-alikes", async () => {
    const { dummySecret } = await import("../../../src/publishing/redaction/engine.ts");
    for (const d of ["x".repeat(20), `${"hf_"}${"A".repeat(34)}`, `dp.pt.${"abcdefghijklmnopqrstuvwxyz"}`, "0123456789012345678901"]) expect(dummySecret(d)).toBe(true);
    expect(dummySecret(`hf_${g.mixed(34)}`)).toBe(false);
    expect(rulesOf(`see ${"h" + "f_"}${"abcdefghijklmnopqrstuvwxyzabcdefgh"}`)).toEqual([]);
  });
  test("percent-encoding is one more decoding; a JSON string holding JSON is unescaped twice", () => {
    const line = `password=${g.mixed(16)}&user=x`;
    const f = scanText(c, "a.log", `GET /cb?next=${encodeURIComponent(`https://x/?${line}`)} HTTP/1.1\n`);
    expect(f.map((x) => x.decoded)).toContain("percent");
    const inner = JSON.stringify({ output: `DB_PASSWORD="${g.mixed(16)}"` });
    expect(rulesOf(JSON.stringify({ payload: { output: inner } }))).not.toEqual([]);
  });
  test("a context line shows no secret-like run in the clear, found or not", async () => {
    const { maskLine } = await import("../../../src/publishing/redaction/mask.ts");
    const pass = g.mixed(12);
    const hf = `${"h" + "f_"}${g.mixed(34)}`;
    const out = maskLine(`curl -u admin:${pass} -H "X: ${hf}" https://user:${pass}@x.acme.dev machine m login l password ${pass}`, []);
    expect(out).not.toContain(pass);
    expect(out).not.toContain(hf.slice(3, 11));
    expect(maskLine("see src/publishing/redaction/engine.ts and the config", [])).toBe("see src/publishing/redaction/engine.ts and the config");
  });
});

describe("searches of their own (finders.ts): the same matches as the regex's own global search", () => {
  const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  /** Texts built of assignment pieces: blanks and line terminators of every kind, separators, quotes, long values. */
  const texts = (seed: number, n: number): string[] => {
    const r = rng(seed);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let s = "";
      for (let p = 1 + Math.floor(r() * 4); p > 0; p--) {
        s += pick(r, ["", "\n", "\r\n", "\r", "\u2028", "  ", "\t- ", "export ", "EXPORT\t", "+", "x ", "a.b ", "\u00a0"]);
        s += pick(r, ["", "my_", "X", "db.", "aws_", "a".repeat(Math.floor(r() * 45))]) + pick(r, ["token", "PASSWORD", "pwd", "secret", "api.key", "Access_Key", "credential", "passwd", "tok", "ſecret"]);
        s += pick(r, ["", "_id", "a".repeat(Math.floor(r() * 45)), "-x"]) + pick(r, ["", "'", '"']) + pick(r, ["", " ", "\n", "      ", "\t\n ", "\u3000"]);
        s += pick(r, ["=", ":", ":=", "=>", "==", " ="]) + pick(r, ["", " ", "\n", "      "]) + pick(r, ['"', "'", "", "`"]);
        s += pick(r, [g.mixed(12), "abc", "Xy9$zz!!aa", "k".repeat(Math.floor(r() * 1100)), "v a l u e s"]) + pick(r, ['"', "'", "", " # c", ";", "\n"]);
      }
      out.push(s);
      // Lines of `name = value` (the unquoted rule's shape), joined by every kind of line terminator.
      let l = "";
      for (let p = 1 + Math.floor(r() * 5); p > 0; p--) {
        l += pick(r, ["", "  ", "\t", "- ", "+\t", "export ", "Export  "]) + pick(r, ["", "db_", "A.", "x".repeat(Math.floor(r() * 45))]) + pick(r, ["token", "Secret", "pwd", "API-KEY", "access.key", "passwd", "tokn"]);
        l += pick(r, ["", "_x", "y".repeat(Math.floor(r() * 45))]) + pick(r, ["", " ", "\t\t", "      "]) + pick(r, ["=", ":", " =", "=="]) + pick(r, ["", " ", "      "]);
        l += pick(r, [g.mixed(12), "short", `${g.mixed(9)}$x`, "z".repeat(Math.floor(r() * 1010)), "'q'"]) + pick(r, ["", " ", " # note", ";", "  #"]) + pick(r, ["\n", "\r\n", "\r", "\u2029", ""]);
      }
      out.push(l);
    }
    return out;
  };
  test("every embedded rule, on assignment-shaped texts", async () => {
    const { finderOf } = await import("../../../src/publishing/redaction/finders.ts");
    const matched = new Map<string, number>();
    const shaped = texts(11, 6000);
    for (const rule of set.rules) {
      if (!rule.regex) continue;
      const ref = new RegExp(rule.regex.source, rule.regex.flags);
      const find = finderOf(new RegExp(rule.regex.source, rule.regex.flags));
      for (const t of shaped) {
        const want: string[] = [];
        ref.lastIndex = 0;
        for (let m = ref.exec(t); m; m = ref.exec(t)) {
          want.push(`${m.index} ${m.slice().join("\0")}`);
          if (m[0] === "") ref.lastIndex++;
        }
        const got: string[] = [];
        let from = 0;
        for (let m = find(t, 0); m; m = find(t, from)) {
          got.push(`${m.index} ${m.slice().join("\0")}`);
          from = m.index + Math.max(1, m[0].length);
        }
        expect(got).toEqual(want);
        matched.set(rule.id, (matched.get(rule.id) ?? 0) + want.length);
      }
    }
    // The two rules with searches of their own match often here.
    expect(Math.min(matched.get("assignment_secret")!, matched.get("assignment_secret_unquoted")!)).toBeGreaterThan(200);
  });
  test("JSON unescaping is the regex replacement it stands for", () => {
    const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|([nrt"\\/]))/g;
    const ref = (text: string) =>
      text.replace(JSON_ESCAPE, (_m, hex: string | undefined, ch: string | undefined) => {
        if (hex !== undefined) {
          const code = parseInt(hex, 16);
          return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 ? " " : String.fromCharCode(code);
        }
        return ch === "n" || ch === "r" || ch === "t" ? " " : ch!;
      });
    const r = rng(5);
    const parts = ["\\", "\\\\", "\\n", "\\u", "\\u00", "\\u002d", "\\u2028", "\\uD83D", "\\uzzzz", "\\x", '\\"', "\\/", "a", "é", "0", "F", " "];
    for (let k = 0; k < 3000; k++) {
      let s = "";
      for (let i = Math.floor(r() * 20); i > 0; i--) s += pick(r, parts);
      expect(unescapeJson(s)).toBe(ref(s));
    }
  });
  test("base64 that decodes to invalid UTF-8 (an identifier read as base64) is not text", () => {
    expect(decodeBase64Text("secret_name_secret_name")).toBeNull();
    expect(decodeBase64Text(Buffer.from("café: the menu of the day").toString("base64"))).toBe("café: the menu of the day");
  });
});
