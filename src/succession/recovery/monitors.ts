/** Recovery step 5: is a monitor script of this pattern still running? (read-only: pgrep and ps, never a signal) */
import { basename } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import type { RunResult } from "../../lib/runner.ts";

const INTERPRETERS = new Set(["sh", "bash", "zsh", "python", "python2", "python3"]);
const TIMEOUT_MS = 5_000;

export type MonitorProbe = (pattern: string) => Promise<{ code: number; stdout: string; stderr: string }>;

/** A small POSIX-ish word splitter (quotes and backslashes), enough for `ps` command lines. */
function splitWords(s: string): string[] | null {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  let q: "'" | '"' | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === q) q = null;
      else if (c === "\\" && q === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      q = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < s.length) {
      cur += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (q) return null;
  if (inWord) out.push(cur);
  return out;
}

/** Lines `<pid> <command>` whose interpreter runs the pattern's script as its first non-dash argument. */
export function filterRunningMonitors(lines: string, pattern: string): string[] {
  const out: string[] = [];
  for (const line of lines.split("\n")) {
    const m = /^\s*(\d+)\s+(.*\S)\s*$/.exec(line);
    if (!m) continue;
    const argv = splitWords(m[2]!);
    if (!argv || argv.length < 2) continue;
    if (!INTERPRETERS.has(basename(argv[0]!))) continue;
    const script = argv.slice(1).find((a) => !a.startsWith("-"));
    if (script !== undefined && (script === pattern || basename(script) === basename(pattern))) out.push(line.trim());
  }
  return out;
}

const failText = (r: RunResult, what: string) => (r.missing ? `${what}: executable not found` : r.timedOut ? `${what}: timed out` : r.signal ? `${what}: killed by ${r.signal}` : r.stderr.trim());

export function pgrepProbe(ctx: Ctx): MonitorProbe {
  return async (pattern) => {
    const r = await ctx.runner(["pgrep", "-f", pattern], { env: ctx.env, timeoutMs: TIMEOUT_MS });
    if (r.code !== 0) return { code: r.code ?? 3, stdout: r.stdout, stderr: failText(r, "pgrep") };
    const rows: string[] = [];
    const errors: string[] = [];
    for (const pid of r.stdout.split(/\s+/).filter((x) => /^\d+$/.test(x))) {
      const p = await ctx.runner(["ps", "-p", pid, "-o", "pid=,command="], { env: ctx.env, timeoutMs: TIMEOUT_MS });
      if (p.code === 0 && p.stdout.trim()) rows.push(p.stdout.trim());
      else if (p.code !== 1 || p.missing || p.timedOut) errors.push(failText(p, "ps") || `ps exit ${p.code}`);
    }
    if (rows.length === 0 && errors.length) return { code: 3, stdout: "", stderr: errors.join("; ") };
    return { code: 0, stdout: rows.join("\n"), stderr: "" };
  };
}
