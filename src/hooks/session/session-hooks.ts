/**
 * The session hooks of reference §28.5 that inject a line of context: role-state-inject, tracker-check,
 * orch-inbox-warn and compaction-probe. Each returns the lines to print; none of them ever fails the host's
 * turn (every problem becomes a WARNING line, and the command exits 0).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { moguiHome, resolveStatePath, type Ctx } from "../../lib/context.ts";
import { ok } from "../../lib/runner.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { errnoCode } from "../../lib/errors.ts";

const EXECUTION_RULE = "Execution rule: Proposal -> Approval -> Execution. No state change without an approved proposal.";

function stripMarkdown(line: string): string {
  return line
    .replace(/^\s*[-*+]\s+/, "")
    .replace(/\*\*|__|`/g, "")
    .trim();
}

export function roleStatePath(ctx: Pick<Ctx, "env" | "cwd">, ops: string): string {
  const p = ctx.env.ROLE_STATE_PATH?.trim();
  return p ? resolve(ctx.cwd, p) : join(ops, "docs", "runbooks", "role-state.md");
}

export function roleStateLine(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    return `[role-state] WARNING: role state unreadable (${path}: ${errnoCode(e) ?? "error"}); declare your role before acting. ${EXECUTION_RULE}`;
  }
  const lines = text.split("\n");
  const role = lines.find((l) => /current role/i.test(l));
  const lock = lines.find((l) => /role lock/i.test(l));
  if (!role) return `[role-state] WARNING: no 'Current Role' line in ${path}; declare your role before acting. ${EXECUTION_RULE}`;
  return `[role-state] ${stripMarkdown(role)} | ${lock ? stripMarkdown(lock) : "Role Lock: (none recorded)"} | ${EXECUTION_RULE}`;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** `bd where` prints a path, or `label: path` lines; the first one that is a directory wins. */
function trackerFromOutput(stdout: string): string | undefined {
  for (const raw of stdout.split("\n")) {
    let c = raw.trim();
    if (!c) continue;
    if (!c.startsWith("/") && c.includes(":")) c = c.slice(c.indexOf(":") + 1).trim();
    if (c.startsWith("/") && existsSync(c)) return c;
  }
  return undefined;
}

function countLines(path: string, needle?: string): number {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l.trim() && (!needle || l.includes(needle))).length;
  } catch {
    return 0;
  }
}

export async function trackerLines(ctx: Ctx, ops: string, cwd: string): Promise<string[]> {
  const expected = join(ops, ".beads");
  const out: string[] = [];
  const r = await ctx.runner(["bd", "where"], { cwd, env: ctx.env, timeoutMs: 5000 });
  if (r.missing) out.push(`[tracker] WARNING: bd is not on PATH; the tracker at ${expected} cannot be verified`);
  else if (!ok(r)) out.push(`[tracker] WARNING: 'bd where' failed (${r.timedOut ? "timed out" : `exit ${r.code}`}); expected ${expected}`);
  else {
    const found = trackerFromOutput(r.stdout);
    if (found && real(found) === real(expected)) out.push(`[tracker] bd resolves to ${expected} (OK)`);
    else out.push(`[tracker] WARNING: bd resolves to ${found ?? "(nothing usable)"}, expected ${expected}`);
  }
  const beads = ctx.env.BEADS_DIR?.trim();
  if (beads && real(resolve(cwd, beads)) !== real(expected)) out.push(`[tracker] WARNING: BEADS_DIR=${beads} does not point at ${expected}`);
  const suppressions = countLines(join(moguiHome(ctx), "guard-suppressions.jsonl"));
  const policy = `${basename(ops)}/model-tier-policy.json`;
  const ledger = resolveStatePath(ctx, undefined, "DISPATCH_GATE_LEDGER", "dispatch-ledger.jsonl");
  out.push(`[protections] active: product-path-guard, dispatch-gate; guard-suppressions=${suppressions}; dispatches under ${policy}=${countLines(ledger, policy)}`);
  return out;
}

/** `[orch-inbox] unacked=<n> | subj ; subj` for unread coordinator mail; nothing when empty or unreachable. */
export async function inboxLine(ctx: Ctx, cwd: string): Promise<string | null> {
  const orca = resolveOrcaExecutable(ctx.env);
  const r = await ctx.runner([orca, "orchestration", "check", "--peek", "--json"], { cwd, env: ctx.env, timeoutMs: 5000 });
  if (!ok(r)) return null;
  let result: { count?: unknown; messages?: unknown };
  try {
    const doc = JSON.parse(r.stdout) as { result?: typeof result } & typeof result;
    result = doc.result ?? doc;
  } catch {
    return null;
  }
  const count = typeof result.count === "number" ? result.count : Array.isArray(result.messages) ? result.messages.length : 0;
  if (count < 1) return null;
  const subjects = (Array.isArray(result.messages) ? result.messages : [])
    .slice(0, 3)
    .map((m) =>
      String((m as { subject?: unknown }).subject ?? "")
        .replace(/\s+/g, " ")
        .slice(0, 48),
    )
    .filter(Boolean);
  return `[orch-inbox] unacked=${count}${subjects.length ? ` | ${subjects.join(" ; ")}` : ""}`;
}

export function contextQualityLog(ctx: Pick<Ctx, "env" | "cwd">): string {
  return resolveStatePath(ctx, undefined, "CONTEXT_QUALITY_LOG", join("monitors", "mg", "context-quality.jsonl"));
}

export function compactionProbe(ledger: string): string {
  const text = [
    "[Compaction Recall Probe] The context was just compacted. Before any tool call, answer from memory:",
    "R1 your current role and role lock; R2 the open tracks and who owns each; R3 the last approved decision;",
    "R4 the next step you were about to take. Then check each answer against its source (role-state.md,",
    `the tracker, the dispatch ledger) and append one JSON line {ts, r1, r2, r3, r4: recalled|missed|wrong} to ${ledger}.`,
  ].join(" ");
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } });
}
