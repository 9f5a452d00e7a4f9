/**
 * `measure CMD...` (reference §28.6): run a command and report `exit=<status>` first, then its output (stdout
 * then stderr) or `(no output)`, and exit with the command's own status: one call an agent can quote verbatim
 * as evidence. `measure-product-path-guard`: the guard's rejection rate from the event log.
 */
import type { Ctx } from "../../lib/context.ts";
import { readRows, type ReadOptions } from "../../lib/ledger.ts";
import { CHILD_STATUS } from "./status.ts";

export interface Measured {
  status: number;
  text: string;
}

export async function measure(ctx: Ctx, argv: readonly string[], timeoutMs: number): Promise<Measured> {
  const r = await ctx.runner(argv, { cwd: ctx.cwd, env: ctx.env, timeoutMs });
  if (r.missing) return { status: CHILD_STATUS.notFound, text: `exit=${CHILD_STATUS.notFound}\n${argv[0]}: command not found\n` };
  const status = r.timedOut ? CHILD_STATUS.timedOut : r.signal ? CHILD_STATUS.signalBase + signalNumber(r.signal) : (r.code ?? CHILD_STATUS.failed);
  let out = `${r.stdout}${r.stderr}`;
  if (r.timedOut) out += `${out && !out.endsWith("\n") ? "\n" : ""}measure: timed out after ${timeoutMs} ms\n`;
  if (out === "") out = "(no output)\n";
  else if (!out.endsWith("\n")) out += "\n";
  return { status, text: `exit=${status}\n${out}` };
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15 };

function signalNumber(sig: string): number {
  return SIGNALS[sig] ?? 0;
}

export interface GuardStats {
  bash_command_observations: number;
  guard_rejections: number;
  rejection_rate: number | null;
}

export async function guardStats(log: string, opts: ReadOptions = {}): Promise<GuardStats> {
  let observations = 0;
  let rejections = 0;
  for await (const { row } of readRows(log, opts)) {
    if (row.event !== "product_path_guard" || row.tool_kind !== "bash") continue;
    observations++;
    if (row.outcome === "block") rejections++;
  }
  return { bash_command_observations: observations, guard_rejections: rejections, rejection_rate: observations ? rejections / observations : null };
}

export function renderGuardStats(s: GuardStats): string[] {
  const rate = s.rejection_rate === null ? "N/A (0/0; no command observations)" : `${(s.rejection_rate * 100).toFixed(1)}% (${s.guard_rejections}/${s.bash_command_observations})`;
  return [`bash_command_observations=${s.bash_command_observations}`, `guard_rejections=${s.guard_rejections}`, `rejection_rate=${rate}`];
}
