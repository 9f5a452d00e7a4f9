/**
 * mogui top in-process: `--once --json` on a real repository and the herdr simulator (through a counting runner),
 * its exit codes, and that a refresh writes nothing and asks each host once however many rows there are.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { realRunner, type Runner } from "../../../src/lib/runner.ts";
import { runMain } from "../../helpers/ctx.ts";
import { topWorld, type TopWorld } from "../../helpers/top-world.ts";

function counting(): { runner: Runner; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    runner: (argv, opts) => {
      calls.push(`${basename(argv[0]!)} ${argv.slice(1).join(" ")}`);
      return realRunner(argv, opts);
    },
  };
}

interface Row {
  id: string;
  state: string;
  group: string;
  model: string | null;
  model_claimed: string | null;
  tokens: number | null;
  pushed: boolean | null;
  verdict: string | null;
  reap: { safe: boolean; reason?: string };
}

async function once(w: TopWorld, extra: string[] = [], runner?: Runner) {
  const r = await runMain(["top", "--repo", w.f.repo, "--once", "--json", ...extra], { env: w.env, cwd: w.f.dir, runner });
  return { ...r, doc: r.code === 0 ? (JSON.parse(r.stdout) as { rows: Row[]; totals: Record<string, unknown> }) : null };
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = `${statSync(p).size}:${readFileSync(p, "utf8")}`;
    }
  };
  walk(dir);
  return out;
}

let shared: TopWorld | undefined;
/** For the tests that change nothing in it. */
const world = () => (shared ??= topWorld());

describe("top --once --json", () => {
  test("one row per worktree and job, with id, state, model (observed), tokens, pushed and reap", async () => {
    const w = world();
    const r = await once(w);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const by = (id: string) => r.doc!.rows.find((x) => x.id === id)!;
    expect(r.doc!.rows.map((x) => x.id).sort()).toEqual(["job-7", "job-8", "wt-dirty", "wt-done"]);
    expect(by("job-7")).toMatchObject({ state: "done", group: "needs_you", model: "claude-sonnet-5", model_claimed: "claude-opus-5", tokens: 1500, pushed: true, verdict: "pending", reap: { safe: false, reason: "bound to open job job-7 (status running)" } });
    expect(by("job-8")).toMatchObject({ state: "blocked", group: "needs_you", pushed: null, tokens: null });
    expect(by("wt-done")).toMatchObject({ state: "idle", group: "reap_ready", reap: { safe: true } });
    expect(by("wt-dirty")).toMatchObject({ group: "finished", reap: { safe: false, reason: "Worktree has uncommitted changes" } });
    expect(r.doc!.totals).toMatchObject({ rows: 4, tokens: 1500 });
  });

  test("a claim the remote does not show is pushed:false", async () => {
    const w = topWorld();
    writeFileSync(join(w.home, "inbox", "jobs", "job-7", "report.md"), "Push SHA: 0123456789abcdef\n");
    const r = await once(w);
    expect(r.doc!.rows.find((x) => x.id === "job-7")!.pushed).toBe(false);
  });

  test("a refresh writes nothing, and asks each host once and the remote once however many worktrees", async () => {
    const w = topWorld(12);
    const before = snapshot(w.home);
    const c = counting();
    const r = await once(w, [], c.runner);
    expect(r.code).toBe(0);
    expect(r.doc!.rows.length).toBe(16);
    const count = (prefix: string) => c.calls.filter((x) => x.startsWith(prefix)).length;
    expect(count("herdr ")).toBe(1);
    expect(count("orca ")).toBe(1);
    expect(count(`git -C ${w.f.repo} ls-remote`)).toBe(1);
    // The herdr simulator keeps its own state file: everything of mogui's is byte for byte what it was.
    const after = snapshot(w.home);
    for (const k of Object.keys(after)) if (k.includes("herdr-state")) delete after[k];
    expect(after).toEqual(before);
  });

  test("--publish-herdr puts spend, verdict and pushed on the worker's pane", async () => {
    const w = topWorld();
    const c = counting();
    const r = await runMain(["top", "--repo", w.f.repo, "--once", "--publish-herdr"], { env: w.env, cwd: w.f.dir, runner: c.runner });
    expect(r.code).toBe(0);
    expect(c.calls).toContain("herdr pane report-metadata w1:p1 --source mogui --token spend=1.5k tok --token verdict=pending --token pushed=yes --ttl-ms 10000");
    const pane = await realRunner(["herdr", "pane", "get", "w1:p1"], { env: w.env });
    expect(JSON.parse(pane.stdout).result.pane.tokens).toEqual({ pushed: "yes", spend: "1.5k tok", verdict: "pending" });
  });
});

describe("top exit codes", () => {
  test("usage: --json without --once, a bad interval, an unknown flag, a --repo that is not a repository", async () => {
    const w = world();
    for (const argv of [
      ["top", "--json"],
      ["top", "--interval-ms", "5", "--once"],
      ["top", "--bogus"],
      ["top", "--repo", w.home, "--once", "--json"],
    ]) {
      const r = await runMain(argv, { env: w.env, cwd: w.f.dir });
      expect({ argv, code: r.code, stdout: r.stdout, lines: r.stderr.trim().split("\n").length <= 2 }).toEqual({ argv, code: 2, stdout: "", lines: true });
    }
  });

  test("a corrupt jobs ledger is LEDGER_UNAVAILABLE (exit 2), one line", async () => {
    const w = topWorld();
    writeFileSync(join(w.home, "jobs-ledger.jsonl"), `not json\n${readFileSync(join(w.home, "jobs-ledger.jsonl"), "utf8")}`);
    const r = await once(w);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^top: LEDGER_UNAVAILABLE: .*jobs-ledger\.jsonl:1/);
  });

  test("colour by state only when asked for: --color always paints STATE; NO_COLOR wins over auto", async () => {
    const w = world();
    const painted = await runMain(["--color", "always", "top", "--repo", w.f.repo, "--once"], { env: w.env, cwd: w.f.dir });
    expect(painted.stdout).toContain("\x1b[31mblocked");
    const plain = await runMain(["top", "--repo", w.f.repo, "--once"], { env: { ...w.env, FORCE_COLOR: "" }, cwd: w.f.dir });
    expect(plain.stdout).not.toContain("\x1b[");
    const never = await runMain(["--color", "never", "top", "--repo", w.f.repo, "--once"], { env: { ...w.env, FORCE_COLOR: "1" }, cwd: w.f.dir });
    expect(never.stdout).not.toContain("\x1b[");
  });

  test("without a terminal and without --once, one plain frame (no escape codes)", async () => {
    const w = world();
    const r = await runMain(["top", "--repo", w.f.repo], { env: w.env, cwd: w.f.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("REAP-READY (1)");
    expect(r.stdout).not.toContain("\x1b");
  });
});
