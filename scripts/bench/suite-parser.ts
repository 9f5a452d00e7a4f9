// The cost of parsing with citty (D35): this binary against another build (`--base <binary>`, e.g. one built from
// the commit before a parser change), run by run in turn (base, this, base, this, ...) so background load hits both
// alike. Probes: `--version` (start-up, no parse), the product-path guard hook (the hot path: an empty argv) and a
// flag-heavy line that citty parses in full before the strict layer rejects its out-of-range integer (exit 2).
//   bun run bench parser --base /path/to/base/mogui [--runs N]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fmt, printTable, loadAverage } from "./measure.ts";

interface Probe {
  name: string;
  args: string[];
  stdin?: string;
  expect: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Wall ms and CPU ms (user + system) of one run. */
function once(bin: string, p: Probe, env: Record<string, string>, cwd: string): [number, number] {
  const t0 = performance.now();
  const r = Bun.spawnSync([bin, ...p.args], { env, cwd, stdin: p.stdin ? new TextEncoder().encode(p.stdin) : "ignore", stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (r.exitCode !== p.expect) throw new Error(`${bin} ${p.args.join(" ")} exited ${r.exitCode} (expected ${p.expect}): ${r.stderr.toString().trim()}`);
  return [ms, Number(r.resourceUsage?.cpuTime.total ?? 0) / 1000];
}

export default async function parserSuite({ runs, bin, tmp, args }: { runs: number; bin: string; tmp: string; args: string[] }): Promise<number> {
  const at = args.indexOf("--base");
  const base = at >= 0 ? args[at + 1] : undefined;
  if (!base) {
    console.error("bench parser: --base <binary> is required (the build to compare against)");
    return 2;
  }
  const n = Math.max(runs, 60);
  const ops = join(tmp, "ops");
  const home = join(tmp, "mogui-home");
  mkdirSync(join(home, "config"), { recursive: true });
  mkdirSync(join(ops, "docs", "runbooks"), { recursive: true });
  mkdirSync(join(tmp, "product"), { recursive: true });
  writeFileSync(join(home, "config", "instance-runtime.json"), JSON.stringify({ master_host_runtime: "claude", product_repo: join(tmp, "product") }));
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, MOGUI_HOME: home, MOGUI_OPS_REPO: ops, NO_COLOR: "1" };
  const hookInput = JSON.stringify({ session_id: "bench", hook_event_name: "PreToolUse", cwd: ops, tool_name: "Bash", tool_input: { command: "git status --short" } });
  const probes: Probe[] = [
    { name: "--version", args: ["--version"], expect: 0 },
    { name: "hook product-path-guard", args: ["hook", "product-path-guard"], stdin: hookInput, expect: 0 },
    { name: "worker-reap <5 flags>, --timeout-ms 0 (usage error)", args: ["worker-reap", "--task-id", "T-1", "--dry-run", "--json", "--ledger", "-", "--timeout-ms", "0"], expect: 2 },
  ];
  const rows: string[][] = [["probe", "binary", "wall median", "cpu median", "wall ratio", "cpu ratio"]];
  for (const p of probes) {
    for (const b of [base, bin]) once(b, p, env, ops);
    const samples = [[], []] as [number, number][][];
    for (let i = 0; i < n; i++) [base, bin].forEach((b, j) => samples[j]!.push(once(b, p, env, ops)));
    const [w0, c0] = [median(samples[0]!.map((s) => s[0])), median(samples[0]!.map((s) => s[1]))];
    const [w1, c1] = [median(samples[1]!.map((s) => s[0])), median(samples[1]!.map((s) => s[1]))];
    rows.push([p.name, "base", fmt(w0), fmt(c0), "1.00", "1.00"]);
    rows.push(["", "this", fmt(w1), fmt(c1), (w1 / w0).toFixed(2), (c1 / c0).toFixed(2)]);
  }
  printTable(rows);
  const load = await loadAverage();
  console.log(`\nruns: ${n} per binary per probe, alternating; load average ${load ?? "n/a"}`);
  return 0;
}
