// master-bootstrap-live is a hook on every session start. Target (issue 4): its p95 wall time on a normal handoff
// directory is at most 2x the median of a bare `mogui --version` measured in the same run. `bd` is the fake in
// fixtures/bin (a shell script), the session id is set so the dual-instance `ps` probe runs, and the SessionStart
// JSON arrives on stdin as Claude Code sends it. Runs of the two commands are interleaved so drift hits both.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fmt, ratio, printTable } from "./measure.ts";

interface Cmd {
  argv: string[];
  env?: Record<string, string>;
  stdin?: string;
}

function once(c: Cmd): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(c.argv, { env: c.env, stdin: c.stdin === undefined ? "ignore" : Buffer.from(c.stdin), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0) throw new Error(`${c.argv.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().trim()}`);
  return ms;
}

function q(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

/** A handoff directory as a long-lived instance has it: many dated handoffs, the latest with a full Role State. */
function handoffDir(tmp: string): string {
  const dir = join(tmp, "handoffs");
  mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= 40; i++) {
    const role = i % 2 ? "Feature Implementation" : "Maintenance";
    const body = [
      `# Handoff gen ${i}`,
      "",
      "## Role State",
      "",
      "```",
      `Current Role: ${role}`,
      "Role Lock: ENABLED",
      "Frozen: all other roles",
      "Unlock: explicit user instruction only",
      "```",
      "",
      "## Current Objective",
      "",
      `Objective ${i}: ${"lorem ipsum ".repeat(40)}`,
      "",
      "## Active/Open Tracks",
      "",
      ...Array.from({ length: 12 }, (_, t) => `- bd-${t} track ${t}`),
      "",
    ];
    writeFileSync(join(dir, `2026-${String(i).padStart(3, "0")}-gen${i}.md`), body.join("\n"));
  }
  return dir;
}

function fakeBdData(tmp: string): string {
  const dir = join(tmp, "bd");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "list.txt"), [...Array.from({ length: 15 }, (_, i) => `bd-${i} [P${i % 3}] [task] in_progress - Track number ${i}`), "", "Total: 15 issues"].join("\n"));
  writeFileSync(join(dir, "prime.txt"), Array.from({ length: 12 }, (_, i) => `### [L${i % 2}] memory ${i}\n${"body text ".repeat(30)}`).join("\n"));
  return dir;
}

export default async function lifecycleSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
  const root = join(import.meta.dir, "..", "..");
  const env: Record<string, string> = {
    PATH: `${join(root, "fixtures", "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: tmp,
    MOGUI_HOME: join(tmp, "home"),
    BD_FAKE_DIR: fakeBdData(tmp),
    CLAUDE_SESSION_ID: "0f3c2b1a-bench-session",
    NO_COLOR: "1",
  };
  const version: Cmd = { argv: [bin, "--version"], env };
  const payload = JSON.stringify({ session_id: "0f3c2b1a-bench-session", transcript_path: join(tmp, "t.jsonl"), cwd: tmp, hook_event_name: "SessionStart", source: "startup" });
  const live: Cmd = { argv: [bin, "master-bootstrap-live", "--handoff-dir", handoffDir(tmp)], env, stdin: payload };
  once(version);
  once(live);
  const v: number[] = [];
  const l: number[] = [];
  for (let i = 0; i < runs; i++) {
    v.push(once(version));
    l.push(once(live));
  }
  const vMed = q(v, 0.5);
  const lP95 = q(l, 0.95);
  const rows = [
    ["command", "median", "p95", "ratio vs --version median"],
    ["mogui --version (baseline)", fmt(vMed), fmt(q(v, 0.95)), "1.00"],
    ["mogui master-bootstrap-live (40 handoffs, fake bd, ps probe)", fmt(q(l, 0.5)), fmt(lP95), `${ratio(lP95, vMed)} (p95)`],
  ];
  printTable(rows);
  const met = lP95 / vMed <= 2;
  console.log(`\nruns: ${runs} each, interleaved; median ratio ${ratio(q(l, 0.5), vMed)}x; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`);
  console.log(`target: bootstrap-live p95 <= 2.00x the --version median -> ${met ? "MET" : "MISSED"} (${ratio(lP95, vMed)}x)`);
  return 0;
}
