/**
 * `adapter doctor` (reference §14): which host tools are present. A tool is present when its probe exits 0; the
 * detail is its stripped stdout, else stderr, else "present"/"missing". orca is probed with `status --json`
 * (deliberately not --version: a present-but-broken orca must show up as missing).
 */
import { existsSync } from "node:fs";
import type { Ctx, Env } from "../../lib/context.ts";
import { ok } from "../../lib/runner.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { expandHome } from "../../lib/paths.ts";

const DOCTOR_TIMEOUT_MS = 10_000;

export interface ProbeCheck {
  name: string;
  probeCmd?: readonly string[];
  path?: string;
}

interface CheckResult {
  name: string;
  present: boolean;
  detail: string;
  probe_cmd: string[] | null;
  path: string | null;
}

export interface DoctorReport {
  present: string[];
  missing: string[];
  results: CheckResult[];
}

/** git, node, orca (resolved per D5), bd, bun: in this order. */
export function defaultChecks(env: Env, orca = resolveOrcaExecutable(env)): ProbeCheck[] {
  return [
    { name: "git", probeCmd: ["git", "--version"] },
    { name: "node", probeCmd: ["node", "--version"] },
    { name: "orca", probeCmd: [orca, "status", "--json"] },
    { name: "bd", probeCmd: ["bd", "--version"] },
    { name: "bun", probeCmd: ["bun", "--version"] },
  ];
}

export function validateCheck(c: ProbeCheck): void {
  if ((c.probeCmd === undefined) === (c.path === undefined)) throw new Error(`check ${c.name}: exactly one of probe_cmd or path is required`);
}

async function runCheck(ctx: Pick<Ctx, "runner" | "env" | "cwd">, c: ProbeCheck, timeoutMs: number): Promise<CheckResult> {
  validateCheck(c);
  if (c.path !== undefined) {
    const present = existsSync(expandHome(ctx, c.path));
    return { name: c.name, present, detail: present ? "present" : "missing", probe_cmd: null, path: c.path };
  }
  const argv = [...c.probeCmd!];
  const r = await ctx.runner(argv, { cwd: ctx.cwd, env: ctx.env, timeoutMs });
  const present = ok(r);
  let detail = r.stdout.trim() || r.stderr.trim() || (present ? "present" : "missing");
  if (r.missing) detail = `executable not found: ${argv[0]}`;
  else if (r.timedOut) detail = `timed out after ${timeoutMs} ms`;
  else if (r.signal) detail = `killed by ${r.signal}`;
  return { name: c.name, present, detail, probe_cmd: argv, path: null };
}

/** Runs every check in order (sequentially: the output order is the check order, and probes are cheap). */
export async function doctor(ctx: Pick<Ctx, "runner" | "env" | "cwd">, checks: readonly ProbeCheck[] = defaultChecks(ctx.env), timeoutMs = DOCTOR_TIMEOUT_MS): Promise<DoctorReport> {
  const results: CheckResult[] = [];
  for (const c of checks) results.push(await runCheck(ctx, c, timeoutMs));
  return {
    present: results.filter((r) => r.present).map((r) => r.name),
    missing: results.filter((r) => !r.present).map((r) => r.name),
    results,
  };
}
