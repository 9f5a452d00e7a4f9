// Throughput of `mogui redaction-scan --paths` on a generated corpus (~200 MB in 20,000 files with planted secrets
// and placeholders), against two baselines measured in the same run: ripgrep running the same rule regexes
// (`rg -c -e ...`), and secretlint with its recommended preset. Targets (issue 14): >= 0.75x ripgrep's MB/s,
// >= 10x secretlint's, 100% of planted secrets found, no placeholder reported; peak RSS reported.
// Then the bounded-memory scenario (issue 14 §6): a ~372 MB tree with ~6 million secret-like strings, generated here;
// the scan must reach a verdict (exit 1) with peak RSS <= 256 MB (the largest process of the sharded scan).
//   bun run bench redaction [--files N] [--secretlint-files N] [--big-mb N | --no-big] [--install-baselines]
//                           [--no-accuracy] [--no-shapes] [--shape-mb N] [--shape-runs N] [--only-issue-25]
// Issue 25 (redaction-accuracy.ts): recall/precision/leaks on the agent-era corpus next to gitleaks and secretlint,
// and the speed against ripgrep of three more corpus shapes (source code, transcripts, minified/lockfiles).
// --install-baselines: apt-get install ripgrep if `rg` is missing; npm-install secretlint into
// /tmp/mogui-bench-cache (never into this repository). Without it a missing baseline is reported as unavailable.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { parseToml } from "../../src/lib/toml.ts";
import { base62, crc32 } from "../../src/publishing/redaction/checksum.ts";
import { accuracy, shapes } from "./redaction-accuracy.ts";
import { printTable, rng } from "./measure.ts";

const CACHE = "/tmp/mogui-bench-cache";
const MB = 1024 * 1024;

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function pick(r: () => number, chars: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += chars[Math.floor(r() * chars.length)];
  return s;
}

/** A GitHub token body with a valid checksum (30 random characters, their CRC32 in base62). */
function gh36(r: () => number): string {
  const rand = pick(r, ALNUM, 30);
  return rand + base62(crc32(rand), 6);
}

/** Planted secrets (each must be found) and placeholders (none may be reported), built at run time. */
function plants(r: () => number): { secrets: Array<[string, string]>; placeholders: string[] } {
  const secrets: Array<[string, string]> = [
    ["aws_access_key", `aws_key_id: ${"AKIA"}${pick(r, UPPER.replace(/[0-9]/g, ""), 16)}`],
    ["github_token", `token = ${"ghp_"}${gh36(r)}`],
    ["slack_token", `SLACK=${"xoxb-"}${pick(r, "0123456789", 11)}-${pick(r, ALNUM, 24)}`],
    ["anthropic_key", `key: ${"sk-ant-"}api03-${pick(r, ALNUM, 40)}`],
    ["openai_sk", `openai ${"sk-"}${pick(r, ALNUM, 48)}`],
    ["bearer_token", `Authorization: ${"Bearer "}${pick(r, ALNUM, 40)}`],
    ["private_key", `-----BEGIN ${"RSA PRIVATE"} KEY-----`],
    ["home_path", `log at /Users/${pick(r, "abcdefghijklmnop", 7)}/work/run.log`],
    ["jwt", `auth ${"eyJ"}hbGciOiJIUzI1NiJ9.${"eyJ"}${pick(r, ALNUM, 30)}.${pick(r, ALNUM, 43)}`],
    ["stripe_key", `STRIPE=${"sk_live_"}${pick(r, ALNUM, 24)}`],
    ["google_api_key", `maps ${"AIza"}Sy${pick(r, ALNUM, 33)} end`],
    ["github_fine_grained_token", `gh ${"github_pat_"}${pick(r, ALNUM, 22)}_${pick(r, ALNUM, 59)}`],
    ["assignment_secret_unquoted", `DB_PASSWORD=Q7${pick(r, ALNUM, 14)}`],
    ["aws_secret_key", `aws_secret_access_key = Kx9${pick(r, ALNUM, 37)}`],
  ];
  const placeholders = [
    "aws_key_id: AKIAIOSFODNN7EXAMPLE",
    `token = ${"ghp_"}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
    `openai ${"sk-"}test-${pick(r, ALNUM, 30)}`,
    'api_key = "your_api_key_here"',
    'password = "changeme-please"',
    "see /Users/dev/project for the layout",
    `Authorization: ${"Bearer "}<token> (placeholder)`,
    "DB_PASSWORD=changeme",
    `token: ${"${{"} secrets.GITHUB_TOKEN }}`,
  ];
  return { secrets, placeholders };
}

const WORDS = "const let value return function import export from state ledger worker dispatch config path result error buffer stream token count index".split(" ");

function filler(r: () => number, lines: number): string {
  let s = "";
  for (let i = 0; i < lines; i++) {
    const n = 4 + Math.floor(r() * 8);
    let line = "  ".repeat(Math.floor(r() * 3));
    for (let k = 0; k < n; k++) line += `${WORDS[Math.floor(r() * WORDS.length)]}${r() < 0.3 ? `_${Math.floor(r() * 999)}` : ""} `;
    s += `${line.trimEnd()}${r() < 0.2 ? ";" : ""}\n`;
  }
  return s;
}

interface Corpus {
  dir: string;
  bytes: number;
  files: number;
  planted: Array<{ file: string; rule: string }>;
  placeholderFiles: Set<string>;
}

export function generate(dir: string, files: number, targetBytes: number): Corpus {
  const r = rng(42);
  const blocks = Array.from({ length: 64 }, () => filler(r, 400));
  const per = Math.floor(targetBytes / files);
  const planted: Corpus["planted"] = [];
  const placeholderFiles = new Set<string>();
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${Math.floor(i / 500)}`);
    if (i % 500 === 0) mkdirSync(sub, { recursive: true });
    const name = `d${Math.floor(i / 500)}/f${i}.ts`;
    let text = "";
    while (text.length < per) text += blocks[Math.floor(r() * blocks.length)]!;
    text = text.slice(0, per);
    const cut = text.lastIndexOf("\n", Math.floor(per / 2)) + 1;
    if (i % 100 === 7) {
      const { secrets } = plants(r);
      const [rule, line] = secrets[Math.floor(i / 100) % secrets.length]!;
      text = `${text.slice(0, cut)}${line}\n${text.slice(cut)}`;
      planted.push({ file: name, rule });
    } else if (i % 100 === 57) {
      const { placeholders } = plants(r);
      text = `${text.slice(0, cut)}${placeholders[Math.floor(i / 100) % placeholders.length]}\n${text.slice(cut)}`;
      placeholderFiles.add(name);
    }
    writeFileSync(join(dir, name), text);
    bytes += Buffer.byteLength(text);
  }
  return { dir, bytes, files, planted, placeholderFiles };
}

function timeIt(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): { ms: number; code: number | null; stdout: string; stderr: string } {
  const t0 = performance.now();
  const p = Bun.spawnSync(argv, { cwd: opts.cwd, env: opts.env ?? (process.env as Record<string, string>), stdout: "pipe", stderr: "pipe" });
  return { ms: performance.now() - t0, code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** Peak RSS in KB of a command and the processes it waited for (GNU time %M: the largest one), or null. */
function peakRssKb(argv: string[], env: Record<string, string>): { kb: number | null; code: number | null; ms: number; stderr: string } {
  const t0 = performance.now();
  if (!existsSync("/usr/bin/time")) {
    const p = Bun.spawnSync(argv, { env, stdout: "pipe", stderr: "pipe" });
    return { kb: p.resourceUsage ? Math.round(p.resourceUsage.maxRSS / 1024) : null, code: p.exitCode, ms: performance.now() - t0, stderr: p.stderr.toString() };
  }
  const p = Bun.spawnSync(["/usr/bin/time", "-f", "%M", ...argv], { env, stdout: "pipe", stderr: "pipe" });
  const err = p.stderr.toString().trim().split("\n");
  const last = err.pop() ?? "";
  return { kb: /^\d+$/.test(last) ? Number(last) : null, code: p.exitCode, ms: performance.now() - t0, stderr: err.join("\n") };
}

/**
 * The bounded-memory tree: `mb` MB in 128 KB files (enough of them that the scan is sharded), every line a secret-like string of one of four kinds (AWS key
 * ids, GitHub tokens, quoted password assignments, bearer tokens), about 62 bytes a line: ~6 million at 372 MB.
 */
function generateBig(dir: string, mb: number): { bytes: number; strings: number; files: number } {
  const r = rng(7);
  const kinds = [
    () => `id_${pick(r, UPPER, 4)} = ${"AKIA"}${pick(r, UPPER.replace(/[0-9]/g, ""), 16)} # rotated\n`,
    () => `tok ${"ghp_"}${gh36(r)} # ci ${pick(r, "0123456789", 6)}\n`,
    () => `db_password = "${pick(r, ALNUM, 20)}" # app ${pick(r, "abcdef", 8)}\n`,
    () => `Authorization: ${"Bearer "}${pick(r, ALNUM, 30)} x${pick(r, "0123456789", 4)}\n`,
  ];
  // A pool of lines, reused: generating 6 million random lines would dominate the run.
  const pool = Array.from({ length: 20_000 }, (_, i) => kinds[i % kinds.length]!());
  let bytes = 0;
  let strings = 0;
  let files = 0;
  for (let f = 0; bytes < mb * MB; f++) {
    const sub = join(dir, `b${Math.floor(f / 100)}`);
    if (f % 100 === 0) mkdirSync(sub, { recursive: true });
    const fd = openSync(join(sub, `f${f}.txt`), "w");
    let chunk = "";
    let size = 0;
    for (let k = Math.floor(r() * pool.length); size < BIG_FILE; k = (k + 7919) % pool.length) {
      const line = pool[k]!;
      chunk += line;
      size += line.length;
      strings++;
    }
    writeSync(fd, chunk);
    closeSync(fd);
    bytes += size;
    files++;
  }
  return { bytes, strings, files };
}

const BIG_FILE = 128 * 1024;

async function bigScenario(bin: string, tmp: string, mb: number, env: Record<string, string>): Promise<string[]> {
  const dir = join(tmp, "big");
  const t0 = performance.now();
  const g = generateBig(dir, mb);
  console.log(`bounded-memory tree: ${g.files} files, ${(g.bytes / MB).toFixed(0)} MB, ${(g.strings / 1e6).toFixed(2)} million secret-like strings (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const run = peakRssKb([bin, "redaction-scan", "-C", dir, "--paths", "."], env);
  rmSync(dir, { recursive: true, force: true });
  const total = /FAIL — (\d+) finding\(s\)/.exec(run.stderr)?.[1];
  const listed = run.stderr.split("\n").filter((l) => l.startsWith("  ")).length;
  const rss = run.kb === null ? null : run.kb / 1024;
  console.log(`  exit ${run.code} in ${(run.ms / 1000).toFixed(1)} s; ${total ?? "?"} findings, ${listed} listed; peak RSS ${rss === null ? "unknown" : `${rss.toFixed(0)} MB`}`);
  return [
    `bounded memory: verdict exit ${run.code} (target 1, a decided scan) ${run.code === 1 ? "MET" : "MISSED"}`,
    `bounded memory: peak RSS ${rss === null ? "unknown" : `${rss.toFixed(0)} MB`} (target <= 256 MB) ${rss !== null && rss <= 256 ? "MET" : "MISSED"}`,
  ];
}

function best(n: number, f: () => { ms: number }): number {
  let b = Infinity;
  for (let i = 0; i < n; i++) b = Math.min(b, f().ms);
  return b;
}

function ensureRipgrep(install: boolean): string | null {
  const found = Bun.which("rg");
  if (found || !install) return found;
  Bun.spawnSync(["apt-get", "install", "-y", "ripgrep"], { stdout: "inherit", stderr: "inherit" });
  return Bun.which("rg");
}

function ensureSecretlint(install: boolean): string | null {
  const bin = join(CACHE, "node_modules", ".bin", "secretlint");
  if (existsSync(bin) || !install) return existsSync(bin) ? bin : null;
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(join(CACHE, "package.json"))) writeFileSync(join(CACHE, "package.json"), '{"name":"mogui-bench-cache","private":true}\n');
  Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--prefix", CACHE, "secretlint", "@secretlint/secretlint-rule-preset-recommend"], { stdout: "inherit", stderr: "inherit" });
  return existsSync(bin) ? bin : null;
}

/** The same regexes ripgrep runs: the rule set's patterns (rg uses Rust regex, which reads RE2 syntax). */
function rulePatterns(root: string): string[] {
  const doc = parseToml(readFileSync(join(root, "config", "gitleaks.toml"), "utf8")) as { rules: Array<{ regex?: string }> };
  return doc.rules.map((r) => r.regex).filter((x): x is string => Boolean(x));
}

const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir)) n += statSync(join(dir, f)).size;
  return n;
}

export default async function redactionSuite({ bin, tmp, args }: { runs: number; bin: string; tmp: string; args: string[] }): Promise<number> {
  const root = join(import.meta.dir, "..", "..");
  const fi = args.indexOf("--files");
  const files = fi >= 0 ? Number(args[fi + 1]) : 20_000;
  const install = args.includes("--install-baselines");
  const corpusDir = join(tmp, "corpus");
  const env0 = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, NO_COLOR: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  // Issue 25: accuracy next to gitleaks and secretlint, then speed per corpus shape (redaction-accuracy.ts).
  if (!args.includes("--no-accuracy")) {
    console.log("");
    for (const v of accuracy(bin, tmp, env0, ensureSecretlint(install))) console.log(v);
  }
  if (!args.includes("--no-shapes")) {
    const si = args.indexOf("--shape-mb");
    const ri = args.indexOf("--shape-runs");
    console.log("");
    for (const v of shapes(bin, tmp, env0, ensureRipgrep(install), rulePatterns(root), si >= 0 ? Number(args[si + 1]) : 100, ri >= 0 ? Number(args[ri + 1]) : 2)) console.log(v);
  }
  if (args.includes("--only-issue-25")) {
    if (!args.includes("--no-big")) {
      const bi = args.indexOf("--big-mb");
      console.log("");
      for (const v of await bigScenario(bin, tmp, bi >= 0 ? Number(args[bi + 1]) : 372, env0)) console.log(v);
    }
    return 0;
  }
  console.log("");
  const t0 = performance.now();
  const c = generate(corpusDir, files, files * 10_000);
  console.log(`corpus: ${c.files} files, ${(c.bytes / MB).toFixed(1)} MB, ${c.planted.length} planted secrets, ${c.placeholderFiles.size} placeholder files (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, NO_COLOR: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  const scanArgv = [bin, "redaction-scan", "-C", corpusDir, "--config", join(root, "config", "gitleaks.toml"), "--paths", "."];
  const first = timeIt(scanArgv, { env });
  const mainRss = peakRssKb(scanArgv, env).kb;
  if (first.code !== 1) {
    console.error(`bench: mogui redaction-scan exited ${first.code}: ${first.stderr.slice(0, 400)}`);
    return 2;
  }
  const reported = new Set<string>();
  for (const l of first.stderr.split("\n")) {
    const m = /^ {2}(\S+):\d+ {2}\[(\w+)\]/.exec(l);
    if (m) reported.add(`${m[1]}\0${m[2]}`);
  }
  const found = c.planted.filter((p) => reported.has(`${p.file}\0${p.rule}`)).length;
  const falsePos = [...reported].filter((k) => c.placeholderFiles.has(k.split("\0")[0]!)).length;
  const moguiMs = Math.min(
    first.ms,
    best(2, () => timeIt(scanArgv, { env })),
  );
  const moguiMBps = mbps(c.bytes, moguiMs);

  const rows: string[][] = [["engine", "best wall time", "MB/s", "mogui ratio", "peak RSS"]];
  rows.push(["mogui redaction-scan --paths", `${moguiMs.toFixed(0)} ms`, moguiMBps.toFixed(1), "1.00", mainRss === null ? "unknown" : `${(mainRss / 1024).toFixed(0)} MB`]);
  const verdicts: string[] = [];
  const rg = ensureRipgrep(install);
  if (rg) {
    const argv = [rg, "-c", "--no-messages", ...rulePatterns(root).flatMap((p) => ["-e", p]), corpusDir];
    const ms = best(3, () => timeIt(argv));
    const ratio = moguiMBps / mbps(c.bytes, ms);
    const rgRss = peakRssKb(argv, process.env as Record<string, string>).kb;
    rows.push(["ripgrep, same regexes (baseline)", `${ms.toFixed(0)} ms`, mbps(c.bytes, ms).toFixed(1), ratio.toFixed(2), rgRss === null ? "unknown" : `${(rgRss / 1024).toFixed(0)} MB`]);
    verdicts.push(`vs ripgrep: ${ratio.toFixed(2)}x (target >= 0.75x) ${ratio >= 0.75 ? "MET" : "MISSED"}`);
  } else {
    rows.push(["ripgrep (baseline)", "unavailable", "-", "-", "-"]);
    verdicts.push("vs ripgrep: baseline unavailable (rg not installed; pass --install-baselines)");
  }
  const sl = ensureSecretlint(install);
  if (sl) {
    // secretlint reads about half a MB/s: it runs on the first `--secretlint-files` files (default 1000, ~10 MB) of
    // the same corpus, and mogui is timed on that same sample too, so the ratio compares equal inputs.
    const si = args.indexOf("--secretlint-files");
    const sample = Math.min(c.files, si >= 0 ? Number(args[si + 1]) : 1000);
    const dirs = Array.from({ length: Math.ceil(sample / 500) }, (_, k) => `d${k}`);
    const sampleBytes = dirs.reduce((a, d) => a + dirBytes(join(corpusDir, d)), 0);
    writeFileSync(join(corpusDir, ".secretlintrc.json"), JSON.stringify({ rules: [{ id: "@secretlint/secretlint-rule-preset-recommend" }] }));
    const argv = [sl, "--secretlintrc", join(corpusDir, ".secretlintrc.json"), "--no-color", ...dirs.map((d) => `${d}/**/*`)];
    const ms = timeIt(argv, { cwd: corpusDir, env: { ...env, NODE_PATH: join(CACHE, "node_modules") } }).ms;
    const mine = best(3, () => timeIt([bin, "redaction-scan", "-C", corpusDir, "--config", join(root, "config", "gitleaks.toml"), "--paths", ...dirs], { env }));
    const ratio = mbps(sampleBytes, mine) / mbps(sampleBytes, ms);
    rows.push([`secretlint, recommended preset (baseline; ${dirs.length * 500} files)`, `${ms.toFixed(0)} ms`, mbps(sampleBytes, ms).toFixed(2), ratio.toFixed(1), "-"]);
    rows.push([`mogui redaction-scan --paths (same ${dirs.length * 500} files)`, `${mine.toFixed(0)} ms`, mbps(sampleBytes, mine).toFixed(1), "-", "-"]);
    verdicts.push(`vs secretlint: ${ratio.toFixed(1)}x on the same sample (target >= 10x) ${ratio >= 10 ? "MET" : "MISSED"}`);
  } else {
    rows.push(["secretlint (baseline)", "unavailable", "-", "-", "-"]);
    verdicts.push("vs secretlint: baseline unavailable (not installed in /tmp/mogui-bench-cache; pass --install-baselines)");
  }
  printTable(rows);
  console.log("");
  for (const v of verdicts) console.log(v);
  console.log(`planted secrets found: ${found}/${c.planted.length} (target 100%) ${found === c.planted.length ? "MET" : "MISSED"}`);
  console.log(`placeholders reported: ${falsePos} (target 0) ${falsePos === 0 ? "MET" : "MISSED"}`);
  rmSync(corpusDir, { recursive: true, force: true });
  if (!args.includes("--no-big")) {
    const bi = args.indexOf("--big-mb");
    console.log("");
    for (const v of await bigScenario(bin, tmp, bi >= 0 ? Number(args[bi + 1]) : 372, env)) console.log(v);
  }
  return 0;
}
