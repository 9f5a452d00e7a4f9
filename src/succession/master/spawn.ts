/**
 * §5.8 fail-closed successor spawn: scoped pre-snapshot, create, parse, worktree and placement match, liveness,
 * a unique title-matched reissue, and cleanup that closes ONLY a terminal it can prove it created.
 */
import type { Ctx } from "../../lib/context.ts";
import { SpawnFailure, type SpawnFailureKind, SuccessionError } from "./errors.ts";
import { ok } from "../../lib/runner.ts";
import { findSessions, orcaExe, runFailure, runOrca, type SessionInfo } from "./sessions.ts";
import { parseCreated, SELECTOR_HINT, SpawnParseError, titleMatches, worktreesMatch } from "./spawn-match.ts";
import { startupCommand } from "./startup.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface SpawnInput {
  workspaceSelector: string;
  kickoffText: string;
  root: string;
  title: string;
  model: string;
  agent: string;
  expectedPlacement?: string;
  dryRun?: boolean;
}

export interface SpawnReport {
  status: "DRY_RUN" | "CREATED";
  command: string[];
  startup_command: string;
  requested_worktree: string;
  handle: string | null;
  worktree_id: string | null;
  handle_reissued: boolean;
  verified: boolean;
  verification: Record<string, unknown>;
}

interface Snapshots {
  scoped: SessionInfo[];
  global: SessionInfo[] | null;
}

function required(inp: SpawnInput): void {
  const fields: [string, string | undefined][] = [
    ["workspace_selector", inp.workspaceSelector],
    ["kickoff_text", inp.kickoffText],
    ["root", inp.root],
    ["title", inp.title],
    ["model", inp.model],
    ["agent", inp.agent],
  ];
  if (inp.expectedPlacement !== undefined) fields.push(["expected_placement", inp.expectedPlacement]);
  for (const [label, v] of fields) if (!v?.trim()) throw new SuccessionError(`${label} is required`);
}

const handles = (xs: SessionInfo[]) => (xs.length ? xs.map((s) => s.handle).join(", ") : "none");

async function confirmOwned(ctx: Ctx, inp: SpawnInput, handle: string, snaps: Snapshots): Promise<string | null> {
  const preExisting = `reported handle ${handle} is pre-existing; terminal not closed`;
  if (snaps.scoped.some((s) => s.handle === handle)) return preExisting;
  const lookup = (opts: { worktree?: string }) =>
    findSessions(ctx, opts).then(
      (xs) => xs.find((s) => s.handle === handle),
      () => undefined,
    );
  let found = await lookup({ worktree: inp.workspaceSelector });
  if (!found && snaps.global) {
    found = await lookup({});
    if (found && snaps.global.some((s) => s.handle === handle)) return preExisting;
  }
  if (!found?.connected || !titleMatches(found.title, inp.title)) {
    return "terminal not closed; ownership unconfirmed, reconcile via orca terminal list";
  }
  return null;
}

/**
 * Close what we provably created, then fail with `kind` (closeError instead when the close itself fails). A mismatch
 * names its `detail` separately: the message carries it after the close outcome, plus the selector-forms hint.
 */
async function cleanupAndFail(ctx: Ctx, inp: SpawnInput, handle: string | null, kind: SpawnFailureKind, snaps: Snapshots, err: string, detail?: string): Promise<never> {
  const hint = detail === undefined ? "" : SELECTOR_HINT;
  const full = detail === undefined ? err : `${err}: ${detail}`;
  if (!handle) throw new SpawnFailure(`${full}; terminal not closed; ownership unconfirmed, reconcile via orca terminal list${hint}`, kind);
  const refusal = await confirmOwned(ctx, inp, handle, snaps);
  if (refusal) throw new SpawnFailure(`${full}; ${refusal}${hint}`, kind);
  const r = await runOrca(ctx, ["terminal", "close", "--terminal", handle, "--json"]);
  if (!ok(r)) throw new SpawnFailure(`${full} and close failed: close error: ${runFailure(r, "orca terminal close failed")}${hint}`, "closeError");
  throw new SpawnFailure(`${err}; closed terminal ${handle}${detail === undefined ? "" : `: ${detail}`}${hint}`, kind);
}

function placementError(inp: SpawnInput, actual: string): string | undefined {
  if (inp.expectedPlacement === undefined || worktreesMatch(actual, inp.expectedPlacement)) return undefined;
  return `expected ${inp.expectedPlacement}, got ${actual}`;
}

function createArgv(ctx: Ctx, inp: SpawnInput): { argv: string[]; startup: string } {
  const startup = startupCommand(inp.root, inp.model, inp.kickoffText, inp.agent);
  return { argv: [orcaExe(ctx), "terminal", "create", "--worktree", inp.workspaceSelector, "--title", inp.title, "--command", startup, "--json"], startup };
}

export async function spawnSuccessor(ctx: Ctx, inp: SpawnInput): Promise<SpawnReport> {
  required(inp);
  const { argv, startup } = createArgv(ctx, inp);
  const base = { command: argv, startup_command: startup, requested_worktree: inp.workspaceSelector };
  const placement: Record<string, string> = inp.expectedPlacement === undefined ? {} : { expected_placement: inp.expectedPlacement };
  if (inp.dryRun) {
    const verification = {
      requested_worktree: inp.workspaceSelector,
      expected_response_field: "worktreeId",
      fail_closed_action: "terminal close on mismatch",
      liveness_check: "reported handle must be live+new+connected in requested worktree, else adopt unique titled candidate or fail closed without closing",
      agent: inp.agent,
      ...placement,
    };
    return { status: "DRY_RUN", ...base, handle: null, worktree_id: null, handle_reissued: false, verified: false, verification };
  }
  const snaps = await snapshots(ctx, inp);
  const created = await create(ctx, inp, argv, snaps);
  return verifyLive(ctx, inp, created, snaps, base, placement);
}

async function snapshots(ctx: Ctx, inp: SpawnInput): Promise<Snapshots> {
  let scoped: SessionInfo[];
  try {
    scoped = await findSessions(ctx, { worktree: inp.workspaceSelector });
  } catch (e) {
    throw new SpawnFailure(`spawn precheck list failed: ${errorMessage(e)}`, "listError");
  }
  let global: SessionInfo[] | null = null;
  try {
    global = await findSessions(ctx);
  } catch {
    global = null;
  }
  return { scoped, global };
}

async function create(ctx: Ctx, inp: SpawnInput, argv: string[], snaps: Snapshots): Promise<{ handle: string; worktreeId: string }> {
  const r = await ctx.runner(argv, { cwd: ctx.cwd, env: ctx.env, timeoutMs: 60_000 });
  if (!ok(r)) {
    throw new SpawnFailure(`spawn terminal create failed: ${runFailure(r, "no error output", 60_000)}`, "createError");
  }
  try {
    return parseCreated(r.stdout);
  } catch (e) {
    if (!(e instanceof SpawnParseError)) throw e;
    if (e.kind === "createError") throw e;
    return cleanupAndFail(ctx, inp, e.sniffedHandle, e.kind, snaps, e.message);
  }
}

async function verifyLive(ctx: Ctx, inp: SpawnInput, created: { handle: string; worktreeId: string }, snaps: Snapshots, base: Pick<SpawnReport, "command" | "startup_command" | "requested_worktree">, placement: Record<string, string>): Promise<SpawnReport> {
  const { handle, worktreeId } = created;
  const sel = inp.workspaceSelector;
  if (!worktreesMatch(worktreeId, sel)) {
    await cleanupAndFail(ctx, inp, handle, "worktreeMismatch", snaps, "spawn worktree mismatch", `requested ${sel}, got ${worktreeId}`);
  }
  const pm = placementError(inp, worktreeId);
  if (pm) await cleanupAndFail(ctx, inp, handle, "placementMismatch", snaps, "spawn placement mismatch", pm);
  let live: SessionInfo[];
  try {
    live = await findSessions(ctx, { worktree: sel });
  } catch (e) {
    return cleanupAndFail(ctx, inp, handle, "listError", snaps, `spawn liveness list failed: ${errorMessage(e)}`);
  }
  const pre = new Set(snaps.scoped.map((s) => s.handle));
  const fresh = live.filter((s) => !pre.has(s.handle) && s.connected && worktreesMatch(s.worktree_id, sel));
  const reported = fresh.find((s) => s.handle === handle);
  if (reported) {
    const verification = {
      requested_worktree: sel,
      actual_worktree: worktreeId,
      result: "MATCH",
      title_matched: titleMatches(reported.title, inp.title),
      liveness_check: "reported handle is live+new+connected in requested worktree",
      ...placement,
    };
    return { status: "CREATED", ...base, handle, worktree_id: worktreeId, handle_reissued: false, verified: true, verification };
  }
  const titled = fresh.filter((s) => titleMatches(s.title, inp.title));
  if (titled.length !== 1) {
    throw new SpawnFailure(
      `spawn handle stale: reported handle ${handle} is not trusted as live; ${fresh.length} new connected terminal(s) exist in worktree ${sel} (${handles(fresh)}), ` +
        `${titled.length} of them carry pane title '${inp.title}' (${handles(titled)}); the created terminal may still be running unmanaged, reconcile via orca terminal list`,
      "handleStale",
    );
  }
  const adopted = titled[0]!;
  const actual = adopted.worktree_id ?? worktreeId;
  const apm = placementError(inp, actual);
  if (apm) await cleanupAndFail(ctx, inp, adopted.handle, "placementMismatch", snaps, "spawn placement mismatch", apm);
  const verification = {
    requested_worktree: sel,
    actual_worktree: actual,
    result: "MATCH_REISSUED",
    title_matched: true,
    reported_handle: handle,
    liveness_check: "reissued handle is live+new+connected in requested worktree",
    ...placement,
  };
  return { status: "CREATED", ...base, handle: adopted.handle, worktree_id: actual, handle_reissued: true, verified: true, verification };
}
