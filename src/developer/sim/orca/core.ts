/** `status`, `open`, `repo add|list|show`, `worktree list|show` (docs/orca-cli.md §2-§4). */
import { existsSync } from "node:fs";
import { basename, resolve } from "node:path";
import { optInt, optString, reqString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { SimError } from "./errors.ts";
import { isGitRepo, scanWorktrees } from "./git-scan.ts";
import { badgeColor, uuid, worktreeId } from "./ids.ts";
import { DEFAULT_HEAD } from "./normalize.ts";
import type { Outcome } from "./output.ts";
import { worktreeRecord } from "./rows.ts";
import { canonical, resolveRepo, resolveWorktree } from "./selectors.ts";
import type { SimRepo, SimState } from "./types.ts";

function statusResult(s: SimState): Record<string, unknown> {
  return {
    target: { kind: "local" },
    app: { running: true, pid: s.appPid, desktopWindowStatus: "available" },
    runtime: { state: "ready", reachable: true, runtimeId: s.runtimeId, appVersion: s.appVersion, capabilities: ["orchestration"] },
    graph: { state: "ready" },
  };
}

function statusText(r: Record<string, any>, connection: string): string {
  return [
    `appRunning: ${r.app.running}`,
    `pid: ${r.app.pid ?? "none"}`,
    `desktopWindowStatus: ${r.app.desktopWindowStatus ?? "unavailable"}`,
    `runtimeState: ${r.runtime.state}`,
    `runtimeReachable: ${r.runtime.reachable}`,
    `runtimeConnectionState: ${connection}`,
    `runtimeId: ${r.runtime.runtimeId ?? "none"}`,
    `graphState: ${r.graph.state}`,
  ].join("\n");
}

/** What `status` prints when no app is running: exit 0 with --json, 1 without (docs/orca-cli.md §1). */
export function notRunningStatus(): Outcome {
  const result = {
    app: { running: false, pid: null },
    runtime: { state: "not_running", reachable: false, runtimeId: null },
    graph: { state: "not_running" },
  };
  return { result, text: statusText(result, "disconnected"), envelopeId: "local-status", metaRuntimeId: "none", exit: 0 };
}

function status(call: Call): Outcome {
  const s = call.store.tx((st) => st);
  const result = statusResult(s);
  return { result, text: statusText(result, "connected"), envelopeId: "local-status", metaRuntimeId: s.runtimeId };
}

/** Register the repo's worktrees from git; known paths keep their ids and records. */
function registerWorktrees(call: Call, s: SimState, repo: SimRepo): void {
  const found = scanWorktrees(repo.path, call.ctx.env) ?? [{ path: repo.path, head: DEFAULT_HEAD, branch: "", isBare: false }];
  found.forEach((g, i) => {
    const known = s.worktrees.find((w) => canonical(w.path) === canonical(g.path));
    if (known) return void Object.assign(known, { head: g.head || known.head, branch: g.branch || known.branch });
    const id = worktreeId(repo.id, g.path);
    s.worktrees.push({ id, repoId: repo.id, path: g.path, head: g.head, branch: g.branch, isBare: g.isBare, isMainWorktree: i === 0, displayName: basename(g.path), lastActivityAt: now(call) });
  });
}

function repoAdd(call: Call): Outcome {
  const path = resolve(call.cwd, reqString(call.flags, "path"));
  if (!existsSync(path)) throw new SimError("runtime_error", `Path does not exist: ${path}`);
  const repo = call.store.tx((s) => {
    let r = s.repos.find((x) => canonical(x.path) === canonical(path));
    if (!r) {
      const kind = isGitRepo(path) ? "git" : "folder";
      r = { id: uuid(), path, displayName: basename(path), badgeColor: badgeColor(), addedAt: now(call), kind };
      s.repos.push(r);
    }
    if (r.kind === "git") registerWorktrees(call, s, r);
    return r;
  });
  return { result: { repo }, text: `Added ${repo.kind === "git" ? "repo" : "folder"} ${repo.displayName} (${repo.id}) at ${repo.path}` };
}

function repoList(call: Call): Outcome {
  const repos = call.store.read().repos;
  return { result: { repos }, text: repos.length ? repos.map((r) => `${r.id} ${r.displayName} ${r.path}`).join("\n") : "No repos." };
}

function repoShow(call: Call): Outcome {
  const repo = resolveRepo(call.store.read(), reqString(call.flags, "repo"));
  return { result: { repo }, text: `${repo.id} ${repo.displayName} ${repo.path} [${repo.kind}]` };
}

function worktreeText(w: Record<string, any>): string {
  return [w.displayName, `  id: ${w.id}`, `  path: ${w.path}`, `  branch: ${w.branch || "(detached)"}`, `  head: ${w.head}`].join("\n");
}

function worktreeList(call: Call): Outcome {
  const s = call.store.read();
  const limit = optInt(call.flags, "limit", "invalid_limit");
  const repoSel = optString(call.flags, "repo");
  const all = repoSel ? s.worktrees.filter((w) => w.repoId === resolveRepo(s, repoSel).id) : s.worktrees;
  const shown = limit === undefined ? all : all.slice(0, limit);
  const worktrees = shown.map(worktreeRecord);
  return {
    result: { worktrees, totalCount: all.length, truncated: shown.length < all.length },
    text: worktrees.length ? worktrees.map(worktreeText).join("\n\n") : "No worktrees.",
  };
}

function worktreeShow(call: Call): Outcome {
  const s = call.store.read();
  const ws = resolveWorktree(s, optString(call.flags, "worktree") ?? "current", call.cwd);
  const wt = s.worktrees.find((w) => w.id === ws.id);
  if (!wt) throw new SimError("selector_not_found", `Not a git worktree: ${ws.id}`, undefined, true);
  const worktree = worktreeRecord(wt);
  return { result: { worktree }, text: worktreeText(worktree) };
}

export const CORE_COMMANDS: CommandTable = {
  status: { flags: [], usage: "orca status [--json]", run: status },
  open: { flags: [], usage: "orca open [--json]", run: status },
  "repo add": { flags: ["path"], usage: "orca repo add --path <path> [--json]", run: repoAdd },
  "repo list": { flags: [], usage: "orca repo list [--json]", run: repoList },
  "repo show": { flags: ["repo"], usage: "orca repo show --repo <selector> [--json]", run: repoShow },
  "worktree list": { flags: ["repo", "limit"], usage: "orca worktree list [--repo <selector>] [--limit <n>] [--json]", run: worktreeList },
  "worktree show": { flags: ["worktree"], usage: "orca worktree show [--worktree <selector>] [--json]", run: worktreeShow },
  "worktree current": { flags: [], usage: "orca worktree current [--json]", run: worktreeShow },
};
