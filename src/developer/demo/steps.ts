/**
 * `mogui demo`: a real repository with a bare origin, a worker worktree whose branch is squash-merged, a task
 * dispatched and completed in the built-in Orca simulator, then worker-reap end to end. Everything runs from
 * this binary alone: the simulator is reached through a two-line `orca` shim that execs `mogui sim orca`.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ctx, Env } from "../../lib/context.ts";
import type { Exits } from "../../lib/exits.ts";
import { appendRow } from "../../lib/ledger.ts";
import { ok } from "../../lib/runner.ts";

/** `mogui demo`'s exits (declared here beside the set-up whose DemoError the command maps to `failed`). */
export const DEMO_EXITS = {
  ok: { code: 0, meaning: "every demo step behaved as documented" },
  failed: { code: 1, meaning: "a step did not (the failing step is named on stderr)" },
  usage: { code: 2, meaning: "usage error: an unknown flag or argument" },
} as const satisfies Exits;

/** A set-up step that did not work: `mogui demo` maps it to its `failed` row. */
export class DemoError extends Error {
  override name = "DemoError";
}

export interface DemoWorld {
  dir: string;
  env: Env;
  repo: string;
  worktree: string;
  ledger: string;
  taskId: string;
  dispatchId: string;
  worker: string;
}

/** The demo's git ignores the user's config (signing, hooks, default branch) so it behaves the same everywhere. */
const IDENTITY: Env = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "mogui demo",
  GIT_AUTHOR_EMAIL: "demo@mogui.invalid",
  GIT_COMMITTER_NAME: "mogui demo",
  GIT_COMMITTER_EMAIL: "demo@mogui.invalid",
  GIT_TERMINAL_PROMPT: "0",
};

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

async function must(ctx: Ctx, env: Env, argv: string[], what: string): Promise<string> {
  const r = await ctx.runner(argv, { env, cwd: ctx.cwd, timeoutMs: 30_000 });
  if (!ok(r)) throw new DemoError(`demo: ${what} failed: ${(r.stderr || r.stdout).trim().split("\n")[0] ?? ""}`);
  return r.stdout;
}

async function orcaJson(ctx: Ctx, env: Env, args: string[], what: string): Promise<Record<string, any>> {
  const out = await must(ctx, env, [env.ORCA_CLI_COMMAND!, ...args, "--json"], what);
  const doc = JSON.parse(out) as { ok?: boolean; result?: Record<string, any> };
  if (!doc.ok || !doc.result) throw new DemoError(`demo: ${what}: unexpected reply`);
  return doc.result;
}

/** The git half: origin, main repo, a worker branch in its own worktree, squash-merged and pushed. */
async function buildRepos(ctx: Ctx, dir: string, env: Env): Promise<{ repo: string; worktree: string }> {
  const origin = join(dir, "origin.git");
  const repo = join(dir, "product");
  const worktree = join(dir, "worktrees", "feature-login");
  const g = (cwd: string, ...a: string[]) => must(ctx, env, ["git", "-C", cwd, ...a], `git ${a[0]}`);
  mkdirSync(repo, { recursive: true });
  await g(dir, "init", "-q", "--bare", "-b", "main", origin);
  await g(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "# product\n");
  await g(repo, "add", "README.md");
  await g(repo, "commit", "-q", "-m", "initial commit");
  await g(repo, "remote", "add", "origin", origin);
  await g(repo, "push", "-q", "origin", "main");
  await g(repo, "worktree", "add", "-q", "-b", "feature-login", worktree, "main");
  writeFileSync(join(worktree, "login.ts"), "export const login = () => true;\n");
  await g(worktree, "add", "login.ts");
  await g(worktree, "commit", "-q", "-m", "worker: add login");
  writeFileSync(join(worktree, "login.ts"), "export const login = (user: string) => user.length > 0;\n");
  await g(worktree, "commit", "-q", "-am", "worker: validate user");
  // The master squash-merges the worker's branch: origin/main gets the changes, not the commits.
  await g(repo, "merge", "-q", "--squash", "feature-login");
  await g(repo, "commit", "-q", "-m", "feat: login (squash of feature-login)");
  await g(repo, "push", "-q", "origin", "main");
  await g(repo, "fetch", "-q", "origin");
  return { repo, worktree };
}

/** The Orca half: a coordinator and a worker terminal, a run, a task, a dispatch, and the worker's worker_done. */
async function dispatchInSimulator(ctx: Ctx, env: Env, repo: string, worktree: string) {
  await orcaJson(ctx, env, ["repo", "add", "--path", repo], "orca repo add");
  const coord = (await orcaJson(ctx, env, ["terminal", "create", "--worktree", `path:${repo}`, "--title", "master"], "orca terminal create (master)")).terminal.handle as string;
  const worker = (await orcaJson(ctx, env, ["terminal", "create", "--worktree", `path:${worktree}`, "--title", "worker: login"], "orca terminal create (worker)")).terminal.handle as string;
  await orcaJson(ctx, env, ["orchestration", "run-create", "--objective", "demo: ship login", "--from", coord], "orca run-create");
  const taskId = (await orcaJson(ctx, env, ["orchestration", "task-create", "--spec", "Add a login check", "--task-title", "login", "--from", coord], "orca task-create")).task.id as string;
  const dispatchId = (await orcaJson(ctx, env, ["orchestration", "dispatch", "--task", taskId, "--to", worker, "--from", coord], "orca dispatch")).dispatch.id as string;
  await orcaJson(ctx, env, ["orchestration", "send", "--type", "worker_done", "--subject", "login done", "--body", "squash-merged", "--task-id", taskId, "--dispatch-id", dispatchId, "--outcome", "succeeded", "--from", worker], "orca send worker_done");
  return { taskId, dispatchId, worker };
}

export async function buildWorld(ctx: Ctx, dir: string): Promise<DemoWorld> {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, "orca");
  writeFileSync(shim, `#!/bin/sh\nexec ${ctx.self.map(shQuote).join(" ")} sim orca "$@"\n`);
  chmodSync(shim, 0o755);
  const ledger = join(dir, "home", "dispatch-ledger.jsonl");
  const env: Env = {
    ...ctx.env,
    ...IDENTITY,
    ORCA_CLI_COMMAND: shim,
    ORCA_SIM_STATE: join(dir, "orca-state.json"),
    ORCA_SIM_CALL_LOG: join(dir, "orca-calls.jsonl"),
    MOGUI_HOME: join(dir, "home"),
    DISPATCH_GATE_LEDGER: undefined,
    ORCA_TERMINAL_HANDLE: undefined,
    ORCA_SIM_FAULT: undefined,
    ORCA_SIM_SCENARIO: undefined,
  };
  const { repo, worktree } = await buildRepos(ctx, dir, env);
  const d = await dispatchInSimulator(ctx, env, repo, worktree);
  // The lifecycle rows the dispatch gate writes (DECISIONS D19), so --unreaped has something to find.
  const now = ctx.now() / 1000;
  appendRow(ledger, { event: "dispatch_submitted", ts: now, dispatch_id: d.dispatchId, task_id: d.taskId, status: "dispatched" });
  appendRow(ledger, { event: "dispatch_completed", ts: now, dispatch_id: d.dispatchId, task_id: d.taskId, status: "completed" });
  if (!existsSync(worktree)) throw new DemoError("demo: the worker worktree was not created");
  return { dir, env, repo, worktree, ledger, ...d };
}
