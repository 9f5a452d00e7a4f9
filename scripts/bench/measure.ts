// Wall time and peak RSS of whole commands. Peak RSS comes from GNU time (`%M`) when /usr/bin/time exists:
// Bun's own rusage of a spawned child also counts the forked pre-exec image, which inflates small processes.
import { existsSync } from "node:fs";

export interface Sample {
  medianMs: number;
  p95Ms: number;
  peakRssKb: number | null;
}

export interface Cmd {
  argv: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Exit code the command must return; anything else aborts the benchmark. */
  expect?: number;
}

const GNU_TIME = "/usr/bin/time";

export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

export function once(c: Cmd): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(c.argv, { env: c.env, cwd: c.cwd, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (p.exitCode !== (c.expect ?? 0)) {
    throw new Error(`${c.argv.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().trim()}`);
  }
  return ms;
}

export function peakRss(c: Cmd): number | null {
  if (!existsSync(GNU_TIME)) {
    const p = Bun.spawnSync(c.argv, { env: c.env, cwd: c.cwd, stdout: "pipe", stderr: "pipe" });
    return p.resourceUsage ? Math.round(p.resourceUsage.maxRSS / 1024) : null;
  }
  const p = Bun.spawnSync([GNU_TIME, "-f", "%M", ...c.argv], { env: c.env, cwd: c.cwd, stdout: "pipe", stderr: "pipe" });
  const last = p.stderr.toString().trim().split("\n").pop() ?? "";
  return /^\d+$/.test(last) ? Number(last) : null;
}

/** Interleaves warm-up, then `runs` timed runs; returns median, p95 and peak RSS. */
export function measure(c: Cmd, runs: number, setup?: () => void): Sample {
  setup?.();
  once(c);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    setup?.();
    xs.push(once(c));
  }
  setup?.();
  return { medianMs: quantile(xs, 0.5), p95Ms: quantile(xs, 0.95), peakRssKb: peakRss(c) };
}

export function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

export function ratio(a: number, b: number): string {
  return (a / b).toFixed(2);
}

/**
 * One warm-up each, then `runs` rounds of one run of every command (so a load spike on a shared machine hits every
 * side of a ratio alike); `before` runs before every run (e.g. to reset state). Median, p95 and peak RSS each.
 */
export function interleaved(cmds: Cmd[], runs: number, before?: () => void): Sample[] {
  for (const c of cmds) {
    before?.();
    once(c);
  }
  const xs = cmds.map(() => [] as number[]);
  for (let i = 0; i < runs; i++)
    cmds.forEach((c, j) => {
      before?.();
      xs[j]!.push(once(c));
    });
  return cmds.map((c, j) => {
    before?.();
    return { medianMs: quantile(xs[j]!, 0.5), p95Ms: quantile(xs[j]!, 0.95), peakRssKb: peakRss(c) };
  });
}

/** Print rows as aligned columns. */
export function printTable(rows: string[][]): void {
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    console.log(
      row
        .map((c, i) => c.padEnd(w[i]!))
        .join("  ")
        .trimEnd(),
    );
}

/** The 1-minute load average ("" where /proc/loadavg cannot be read): printed beside figures a busy machine moves. */
export async function loadAverage(): Promise<string> {
  return (
    await Bun.file("/proc/loadavg")
      .text()
      .catch(() => "")
  ).split(" ")[0]!;
}

/** Deterministic PRNG (an LCG) so every run generates the same corpus. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
