// `mogui sandbox run` start overhead (issue 23): `mogui sandbox run --deny-write P -- true` against a plain `true`
// spawned the same way in the same run, INTERLEAVED (true, sandboxed, --version, ...) so background load hits all
// alike. Target: median(sandbox run) - median(true) <= 20 ms. `mogui --version` is shown to split the figure into
// mogui's own start-up and what bubblewrap adds.
//   bun run bench sandbox [--runs N]   (at least 60 samples per command)
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fmt, printTable, loadAverage, quantile } from "./measure.ts";

/** CPU time (user + system, the process and the children it waited for) of each run, in ms: load barely moves it. */
const cpu = new Map<string, number[]>();

function once(argv: string[], env: Record<string, string>): number {
  const t0 = performance.now();
  const r = Bun.spawnSync(argv, { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}: ${r.stderr.toString().trim()}`);
  const used = r.resourceUsage?.cpuTime.total;
  if (used !== undefined) cpu.set(argv.join(" "), [...(cpu.get(argv.join(" ")) ?? []), Number(used) / 1000]);
  return ms;
}

export default async function sandboxSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
  const n = Math.max(runs, 60);
  const product = join(tmp, "code", "product");
  mkdirSync(product, { recursive: true });
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, NO_COLOR: "1" };
  const trueBin = Bun.which("true", { PATH: env.PATH }) ?? "/bin/true";
  const probes: [string, string[]][] = [
    ["true (baseline)", [trueBin]],
    ["mogui sandbox run --deny-write P -- true", [bin, "sandbox", "run", "--deny-write", product, "--", trueBin]],
    ["mogui --version", [bin, "--version"]],
    [
      "bwrap directly (same mounts)",
      [
        Bun.which("bwrap", { PATH: env.PATH }) ?? "bwrap",
        "--dev-bind",
        "/",
        "/",
        "--dev-bind",
        tmp,
        tmp,
        "--dev-bind",
        join(tmp, "code"),
        join(tmp, "code"),
        "--ro-bind",
        product,
        product,
        "--unshare-pid",
        "--proc",
        "/proc",
        "--cap-drop",
        "ALL",
        "--",
        trueBin,
      ],
    ],
  ];
  const check = Bun.spawnSync([bin, "sandbox", "check"], { env, stdout: "pipe", stderr: "pipe" });
  if (check.exitCode !== 0) {
    console.log(`SKIPPED: mogui sandbox check exit ${check.exitCode}: ${check.stderr.toString().trim()}`);
    return 0;
  }
  for (let i = 0; i < 3; i++) for (const [, argv] of probes) once(argv, env);
  const xs = probes.map(() => [] as number[]);
  for (let i = 0; i < n; i++) probes.forEach(([, argv], k) => xs[k]!.push(once(argv, env)));
  const base = quantile(xs[0]!, 0.5);
  const cpuMed = (argv: string[]) => (cpu.get(argv.join(" "))?.length ? quantile(cpu.get(argv.join(" "))!, 0.5) : Number.NaN);
  const rows = [
    ["command", "median", "p95", "median - median(true)", "cpu median", "cpu - cpu(true)"],
    ...probes.map(([name, argv], k) => [name, fmt(quantile(xs[k]!, 0.5)), fmt(quantile(xs[k]!, 0.95)), fmt(quantile(xs[k]!, 0.5) - base), fmt(cpuMed(argv)), fmt(cpuMed(argv) - cpuMed(probes[0]![1]))]),
  ];
  printTable(rows);
  const load = await loadAverage();
  if (load) console.log(`\nload average (1 min) during the run: ${load} on ${navigator.hardwareConcurrency} CPUs`);
  const added = quantile(xs[1]!, 0.5) - base;
  console.log(`\nsamples: ${n} per command, interleaved; target: sandbox run adds <= 20 ms to a command's start`);
  console.log(`sandbox run adds ${fmt(added)} wall (${fmt(cpuMed(probes[1]![1]) - cpuMed(probes[0]![1]))} cpu) -> ${added <= 20 ? "MET" : "MISSED"}`);
  return 0;
}
