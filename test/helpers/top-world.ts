/**
 * A fleet for mogui top's tests: a real repository with worktrees in mixed states, a jobs ledger, a worker's
 * transcript (claimed one model, observed another), its report claiming a pushed SHA, and herdr simulator panes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, e2eEnv } from "./binary.ts";
import { addWorktree, makeRepo, mergeBranch, sh, type Fixture } from "./git.ts";
import { tempDir } from "./paths.ts";

export interface TopWorld {
  f: Fixture;
  home: string;
  wt: Record<"done" | "dirty" | "job" | "blocked", string>;
  env: Record<string, string>;
}

function claudeProject(worktree: string): string {
  return worktree.replace(/[^A-Za-z0-9]/g, "-");
}

export function topWorld(extraWorktrees = 0): TopWorld {
  const f = makeRepo();
  const home = tempDir("mogui-top-home-");
  const wt = { done: addWorktree(f, "done"), dirty: addWorktree(f, "dirty"), job: addWorktree(f, "job"), blocked: addWorktree(f, "blocked") };
  mergeBranch(f, "done");
  for (let i = 0; i < extraWorktrees; i++) addWorktree(f, `extra${i}`);
  writeFileSync(join(wt.dirty, "notes.txt"), "unsaved\n");
  sh(wt.job, "push", "-q", "origin", "job");
  const sha = sh(wt.job, "rev-parse", "HEAD");
  const inbox = join(home, "inbox", "jobs", "job-7");
  mkdirSync(inbox, { recursive: true });
  writeFileSync(join(inbox, "report.md"), `Done.\nPush SHA: ${sha}\n`);
  writeFileSync(join(inbox, "brief.md"), "implement it\n");
  const now = Math.floor(Date.now() / 1000);
  const spawn = (id: string, worktree: string, branch: string, pane: string, model: string, extra = {}) =>
    JSON.stringify({ event: "job_spawned", ts: now - 1200, job_id: id, worktree, repo: f.repo, branch, host: "herdr", pane_id: pane, kind: "claude", model, tier: "T2", inbox: join(home, "inbox", "jobs", id), ...extra });
  writeFileSync(join(home, "jobs-ledger.jsonl"), `${[spawn("job-7", wt.job, "job", "w1:p1", "claude-opus-5"), spawn("job-8", wt.blocked, "blocked", "w1:p2", "claude-sonnet-5")].join("\n")}\n`);
  const proj = join(home, ".claude", "projects", claudeProject(wt.job));
  mkdirSync(proj, { recursive: true });
  const ts = new Date().toISOString();
  writeFileSync(
    join(proj, "s1.jsonl"),
    `${[
      { type: "user", timestamp: ts, message: { role: "user", content: "implement it" } },
      { type: "assistant", timestamp: ts, message: { id: "m1", role: "assistant", model: "claude-sonnet-5", content: [{ type: "text", text: "working on it" }], usage: { input_tokens: 1200, output_tokens: 300 } } },
    ]
      .map((x) => JSON.stringify(x))
      .join("\n")}\n`,
  );
  writeFileSync(
    join(home, "herdr-scenario.json"),
    JSON.stringify({
      workspaces: [{ workspace_id: "w1", label: "workers", focused: false }],
      panes: [
        { pane_id: "w1:p1", tab_id: "w1:t1", cwd: wt.job, agent: { kind: "claude", name: "job7", state: "idle", seen: false } },
        { pane_id: "w1:p2", tab_id: "w1:t1", cwd: wt.blocked, agent: { kind: "claude", name: "job8", state: "blocked", seen: true } },
      ],
    }),
  );
  const env = e2eEnv({
    MOGUI_HOME: home,
    HOME: home,
    HERDR_SIM_STATE: join(home, "herdr-state.json"),
    HERDR_SIM_SCENARIO: join(home, "herdr-scenario.json"),
    ORCA_CLI_COMMAND: "orca",
    HERDR_CLI_COMMAND: "herdr",
    MOGUI_BIN: binaryPath(),
  });
  return { f, home, wt, env };
}
