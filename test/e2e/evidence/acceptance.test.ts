/**
 * `mogui acceptance-loop run` end to end through the compiled binary, with the fake proposer (fixtures/acceptance/
 * bin/claude) and the fake evaluator (accept-check) on PATH, in a real git repo:
 * - two iterations: one rejected candidate restored by --restore-cmd, then one accepted; exit 0, every artefact;
 * - a proposer that goes looking for holdout data finds none: no private case id, command or private-only stratum
 *   ever reaches its argv, its environment, its workspace or its working directory.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ACCEPTANCE_BIN, PRIVATE_TOKENS, makeAcceptanceFixture, type AcceptanceFixture } from "../../../fixtures/acceptance/make.ts";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";

function env(f: AcceptanceFixture, extra: Record<string, string> = {}): Record<string, string> {
  const base = e2eEnv({ FAKE_PROPOSER_PLAN: f.plan, ...extra });
  return { ...base, PATH: `${ACCEPTANCE_BIN}:${base.PATH}` };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const json = (p: string) => JSON.parse(readFileSync(p, "utf8"));

describe("acceptance-loop run: two iterations through dist/mogui", () => {
  test("iteration 1 rejected and restored, iteration 2 accepted; exit 0 with the full report", async () => {
    const f = makeAcceptanceFixture();
    const r = await runBinary(["acceptance-loop", "run", "--config", f.config, "--max-iterations", "2", "--restore-cmd", "git checkout -- ."], { env: env(f) });
    expect(r.stderr).toContain("acceptance-loop: baseline: combined 4/5\n");
    expect(r.code).toBe(0);
    // Progress on stderr: iteration, evaluated cases, current combined pass count.
    expect(r.stderr).toContain("acceptance-loop: iteration 1/2 cases: 5/5 ");
    expect(r.stderr).toContain("acceptance-loop: iteration 1/2: rejected iter-001 NO_PASS_COUNT_INCREASE (combined 4 -> 4)\n");
    expect(r.stderr).toContain("acceptance-loop: restoring the workspace after rejecting iter-001: git checkout -- .\n");
    expect(r.stderr).toContain("acceptance-loop: iteration 2/2: accepted iter-002 PASS_COUNT_INCREASED (combined 4 -> 5)\n");
    expect(r.stderr).toContain("acceptance-loop: iteration 2/2: current iter-002, combined 5/5\n");
    // The workspace: the rejected edit to the holdout file is gone, the accepted fix stays.
    expect(readFileSync(join(f.repo, "h1.txt"), "utf8")).toBe("good\n");
    expect(readFileSync(join(f.repo, "t1.txt"), "utf8")).toBe("fixed\n");
    // stdout is report.md, byte for byte.
    expect(r.stdout).toBe(readFileSync(join(f.runDir, "report.md"), "utf8"));
    expect(r.stdout).toContain("- Final: `iter-002`\n- Accepted candidates: `1/2`\n");
    expect(r.stdout).toContain("| train | 1/2 | 2/2 |\n| holdout | 3/3 | 3/3 |\n| scorecard | 0/1 | 1/1 |\n");
    expect(r.stdout).toContain("- Iteration 1: rejected `iter-001`\n  - Reason: `NO_PASS_COUNT_INCREASE`\n  - Combined: `4 -> 4` (delta `0`)\n");
    expect(r.stdout).toContain("- Iteration 2: accepted `iter-002`\n  - Reason: `PASS_COUNT_INCREASED`\n");
    const report = json(join(f.runDir, "report.json"));
    expect(Object.keys(report)).toEqual(["baseline", "baseline_score", "baseline_scorecard", "config", "created_at", "final", "final_score", "final_scorecard", "iterations"]);
    expect(report.final.label).toBe("iter-002");
    expect(report.final_score.combined_passed).toBe(5);
    expect(report.final_scorecard.label).toBe("iter-002-scorecard");
    expect(report.iterations.map((i: { verdict: { decision: string } }) => i.verdict.decision)).toEqual(["rejected", "accepted"]);
    // Iteration artefacts.
    const d1 = json(join(f.runDir, "history/visible/iterations/001/decision.json"));
    expect(d1).toMatchObject({ iteration: 1, decision: "rejected", reason: "NO_PASS_COUNT_INCREASE", current_combined: 4, candidate_combined: 4, delta: 0 });
    expect(json(join(f.runDir, "history/visible/iterations/002/decision.json")).decision).toBe("accepted");
    expect(readFileSync(join(f.runDir, "history/visible/iterations/001/decision.md"), "utf8")).toStartWith("# Iteration 1\n");
    expect(json(join(f.runDir, "history/visible/iterations/001/proposer_workspace/proposer_result.json"))).toMatchObject({ returncode: 0, ok: true });
    expect(existsSync(join(f.runDir, "history/private/holdout/iter-001/result.json"))).toBe(true);
    expect(existsSync(join(f.runDir, "history/visible/train/baseline/result.json"))).toBe(true);
    expect(Object.keys(json(join(f.runDir, "split.json")))).toEqual(["holdout", "scorecard", "train"]);
    expect(json(join(f.runDir, "manifest.json"))).toMatchObject({ name: "e2e", max_iterations: 2, proposer_runtime: "claude" });
    expect(filesUnder(f.runDir).filter((p) => p.endsWith(".tmp"))).toEqual([]);
    // The regression log pinned the baseline's train failure and iteration 1's holdout failure, once each.
    const pins = readFileSync(f.regressionLog, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(pins.map((p) => [p.case_id, p.iteration, p.observed_split, p.origin])).toEqual([
      ["T-ALPHA", 0, "train", "regression"],
      ["HOLDOUT-SECRET-ALPHA", 1, "holdout", "regression"],
    ]);
    // ...but the visible decision file only counts the private pin.
    expect(d1.promoted_regressions).toEqual([]);
    expect(d1.promoted_private_regressions).toBe(1);
    // inspect prints report.json verbatim.
    const i = await runBinary(["acceptance-loop", "inspect", "--run-dir", f.runDir]);
    expect(i).toEqual({ code: 0, stdout: readFileSync(join(f.runDir, "report.json"), "utf8"), stderr: "" });
  });

  test("a proposer that goes looking for holdout data finds none, and no proposer workspace holds any", async () => {
    const f = makeAcceptanceFixture();
    const r = await runBinary(["acceptance-loop", "run", "--config", f.config, "--max-iterations", "2", "--restore-cmd", "git checkout -- ."], {
      env: env(f, { FAKE_PROPOSER_SNOOP: f.snoop }),
    });
    expect(r.code).toBe(0);
    const seen = readFileSync(f.snoop, "utf8");
    // It did look: its workspace, its cwd and the visible cases are all in what it saw.
    expect(seen).toContain("== workspace ");
    expect(seen).toContain("task.md");
    expect(seen).toContain("T-ALPHA");
    expect(seen).toContain("Visible score: 1/2");
    for (const t of PRIVATE_TOKENS) expect(seen).not.toContain(t);
    const workspaces = filesUnder(join(f.runDir, "history/visible/iterations")).filter((p) => p.includes("/proposer_workspace/"));
    expect(workspaces.length).toBeGreaterThanOrEqual(10);
    for (const p of workspaces) {
      const text = readFileSync(p, "utf8");
      for (const t of PRIVATE_TOKENS) expect({ file: p, leaked: text.includes(t) }).toEqual({ file: p, leaked: false });
    }
    // The private data does exist, in history/private and the root files only.
    expect(readFileSync(join(f.runDir, "history/private/holdout/baseline/result.json"), "utf8")).toContain("HOLDOUT-SECRET-ALPHA");
  });

  test("a bare run is one iteration (D26) and --max-iterations 2 without --restore-cmd is a usage error", async () => {
    const f = makeAcceptanceFixture();
    const bad = await runBinary(["acceptance-loop", "run", "--config", f.config, "--max-iterations", "2"], { env: env(f) });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toStartWith("mogui: --max-iterations 2 needs --restore-cmd: proposer and evaluator mutate the workspace in place; pass --restore-cmd to restore it after a rejected candidate, or set --max-iterations 1.");
    expect(existsSync(f.runDir)).toBe(false);
    const bare = await runBinary(["acceptance-loop", "run", "--config", f.config], { env: env(f) });
    expect(bare.code).toBe(1);
    expect(json(join(f.runDir, "report.json")).iterations.length).toBe(1);
    // Without a restore the rejected tree stays: that is why a second iteration needs --restore-cmd.
    expect(readFileSync(join(f.repo, "h1.txt"), "utf8")).toBe("bad\n");
  });

  test("a missing proposer CLI is no candidate, reported on stderr; the run exits 1", async () => {
    const f = makeAcceptanceFixture({ proposer: { runtime: "codex" } });
    const base = e2eEnv();
    const r = await runBinary(["acceptance-loop", "run", "--config", f.config], {
      env: {
        ...base,
        PATH: `/nonexistent:${base
          .PATH!.split(":")
          .filter((d) => !d.includes("acceptance"))
          .join(":")}`,
      },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("acceptance-loop: warning: proposer codex failed (exit 127: executable not found: codex); no candidate\n");
    expect(r.stdout).toContain("- Iteration 1: no candidate produced\n");
  });
});
