/** l1-digest (reference §12): SENSE / TRIAGE / RECORD / PACE against real temp repos. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestConfigFrom, DigestError, type DigestConfig } from "../../../src/evidence/digest/config.ts";
import { renderDigest } from "../../../src/evidence/digest/render.ts";
import { classifyJobLog, ledgerTail, processState } from "../../../src/evidence/digest/sense.ts";
import { tick } from "../../../src/evidence/digest/tick.ts";
import { realRunner } from "../../../src/lib/runner.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { gitEnv, makeRepo, sh } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 600);
const ctx = { runner: realRunner, env: gitEnv() };

function setup(extra: Record<string, unknown> = {}) {
  const f = makeRepo();
  const dir = tempDir("mogui-digest-");
  const cfg = digestConfigFrom({ repos: [{ path: f.repo, name: "prod" }], ledger_path: "ledger.jsonl", job_log_globs: [], monitor_pgrep_patterns: [], baseline_path: "baseline.json", digest_dir: "out", ...extra }, dir);
  return { f, dir, cfg };
}
const head = (repo: string) => sh(repo, "rev-parse", "HEAD");
const commit = (repo: string, file: string) => {
  writeFileSync(join(repo, file), `${file}\n`);
  sh(repo, "add", ".");
  sh(repo, "commit", "-q", "-m", file);
};

describe("tick", () => {
  test("bootstrap is expected and recorded; a quiet second tick changes nothing", async () => {
    const { f, cfg } = setup();
    const r1 = await tick(ctx, cfg, NOW);
    expect(r1.items.map((i) => [i.classification, i.summary])).toEqual([["expected", `prod baseline bootstrap: head=${head(f.repo)} dirty=false`]]);
    expect(r1.unexplained).toBe(0);
    expect(r1.baselineWritten).toBe(true);
    const base = readFileSync(cfg.baselinePath, "utf8");
    expect(JSON.parse(base)).toEqual({ expected: { repos: {} }, repos: { prod: { dirty: false, head: head(f.repo), path: f.repo } } });
    expect(base.endsWith("}\n")).toBe(true);
    expect(r1.digestPath).toBe(join(cfg.digestDir, `l1-digest-${Math.floor(NOW / 1000)}.md`));
    expect(readFileSync(r1.digestPath, "utf8")).toBe(r1.digest);
    const r2 = await tick(ctx, cfg, NOW + 1000);
    expect([r2.items, r2.baselineWritten]).toEqual([[], false]);
    expect(readFileSync(cfg.baselinePath, "utf8")).toBe(base);
  });

  test("an unexplained commit is reported and the baseline is NOT moved", async () => {
    const { f, cfg } = setup();
    await tick(ctx, cfg, NOW);
    const old = head(f.repo);
    commit(f.repo, "a.txt");
    const before = readFileSync(cfg.baselinePath, "utf8");
    const r = await tick(ctx, cfg, NOW);
    expect(r.items.map((i) => [i.classification, i.summary])).toEqual([["unexplained", `prod head ${old} -> ${head(f.repo)}; dirty false -> false`]]);
    expect(r.unexplained).toBe(1);
    expect(readFileSync(cfg.baselinePath, "utf8")).toBe(before);
    expect(r.digest).toContain(`## Unexplained\n- prod head ${old} -> ${head(f.repo)}; dirty false -> false\n`);
  });

  test("a ledger row naming the repo and its new head makes it an echo; a different head does not", async () => {
    const { f, cfg } = setup();
    await tick(ctx, cfg, NOW);
    commit(f.repo, "b.txt");
    writeFileSync(cfg.ledgerPath, `${JSON.stringify({ repo_path: f.repo, new_head: "0".repeat(40) })}\nnot json\n`);
    expect((await tick(ctx, cfg, NOW)).items[0]!.classification).toBe("unexplained");
    writeFileSync(cfg.ledgerPath, `${JSON.stringify({ job_id: "j1", decision: "ALLOW", repo: "prod", new_head: head(f.repo), dirty: false })}\n`);
    const r = await tick(ctx, cfg, NOW);
    expect(r.items[0]!.classification).toBe("echo");
    expect(r.digest).toContain(`## Ledger Summary\n- job_id=j1 decision=ALLOW repo=prod new_head=${head(f.repo)}\n`);
  });

  test("a pre-announced state is expected: recorded, and the announcement consumed", async () => {
    const { f, cfg } = setup();
    await tick(ctx, cfg, NOW);
    writeFileSync(join(f.repo, "dirty.txt"), "x");
    const b = JSON.parse(readFileSync(cfg.baselinePath, "utf8"));
    b.expected = { repos: { prod: { head: head(f.repo), dirty: true } }, note: "kept" };
    writeFileSync(cfg.baselinePath, JSON.stringify(b));
    const r = await tick(ctx, cfg, NOW);
    expect(r.items.map((i) => i.classification)).toEqual(["expected"]);
    const after = JSON.parse(readFileSync(cfg.baselinePath, "utf8"));
    expect(after.repos.prod.dirty).toBe(true);
    expect(after.expected).toEqual({ note: "kept", repos: {} });
  });

  test("an unreadable repo is recorded with its error; a bad baseline is a DigestError", async () => {
    const { cfg, dir } = setup({ repos: ["nowhere"] });
    const r = await tick(ctx, cfg, NOW);
    expect(r.items[0]!.current).toMatchObject({ head: null, dirty: false });
    expect(r.items[0]!.current.error).toBeTruthy();
    writeFileSync(join(dir, "baseline.json"), "[]");
    await expect(tick(ctx, cfg, NOW)).rejects.toThrow(DigestError);
  });
});

describe("sense", () => {
  const cfg = { finishedMarkers: ["completed", "done"], maxIdleSeconds: 360, activeWindowSeconds: 21600 };
  test("job log classification order: missing, sidecar, finished marker, dormant, stalled, running", () => {
    const dir = tempDir();
    const log = (name: string, text: string, ageS: number) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      utimesSync(p, (NOW - ageS * 1000) / 1000, (NOW - ageS * 1000) / 1000);
      return p;
    };
    expect(classifyJobLog(join(dir, "none.log"), cfg, NOW)).toMatchObject({ status: "missing", reason: "LOG_MISSING" });
    const side = log("side.log", "working\n", 10);
    writeFileSync(join(dir, "side.json"), JSON.stringify({ status: "Cancelled" }));
    expect(classifyJobLog(side, cfg, NOW)).toMatchObject({ status: "finished", reason: "SIDECAR_STATUS" });
    writeFileSync(join(dir, "bad.json"), "{");
    expect(classifyJobLog(log("bad.log", "x\n", 10), cfg, NOW).status).toBe("running");
    expect(classifyJobLog(log("m.log", "a\nJob DONE ok\n", 99999), cfg, NOW)).toMatchObject({ status: "finished", reason: "FINISHED_MARKER" });
    expect(classifyJobLog(log("old.log", `done\n${"x\n".repeat(25)}`, 30000), cfg, NOW)).toMatchObject({ status: "dormant", reason: "OUTSIDE_ACTIVE_WINDOW", idleSeconds: 30000 });
    expect(classifyJobLog(log("st.log", "x\n", 400), cfg, NOW)).toMatchObject({ status: "stalled", reason: "IDLE_TIMEOUT", idleSeconds: 400 });
    expect(classifyJobLog(log("run.log", "x\n", 5), cfg, NOW)).toMatchObject({ status: "running", reason: "OK", idleSeconds: 5 });
  });

  test("pgrep: 0 running, 1 idle, anything else idle with the error", async () => {
    const runner = stubRunner([
      [["pgrep", "-f", "a"], { code: 0 }],
      [["pgrep", "-f", "b"], { code: 1 }],
      [["pgrep", "-f", "c"], { code: 2, stderr: "pgrep: bad pattern\n" }],
      [["pgrep", "-f", "d"], { missing: true }],
    ]);
    const out = await Promise.all(["a", "b", "c", "d"].map((p) => processState({ runner, env: {} }, p)));
    expect(out.map((o) => [o.status, o.error])).toEqual([
      ["running", null],
      ["idle", null],
      ["idle", "pgrep: bad pattern"],
      ["idle", "pgrep: executable not found"],
    ]);
  });

  test("ledger tail keeps the last N JSON objects, skipping bad lines", () => {
    const p = join(tempDir(), "l.jsonl");
    writeFileSync(p, ['{"a":1}', "[1]", "oops", '{"a":2}', '{"a":3}', ""].join("\n"));
    expect(ledgerTail(p, 2)).toEqual([{ a: 2 }, { a: 3 }]);
    expect(ledgerTail(join(tempDir(), "none"), 5)).toEqual([]);
  });
});

describe("render and config", () => {
  test("the markdown layout, section by section; pace 600 when busy, else 1800", () => {
    const snap = { repos: {}, ledgerTail: [{ x: 1 }], jobs: [{ name: "j.log", path: "/j.log", status: "stalled" as const, reason: "IDLE_TIMEOUT", idleSeconds: 400 }], processes: [{ pattern: "mon", status: "idle" as const, error: "boom" }] };
    expect(renderDigest(snap, [], NOW)).toBe(
      [
        "# L1 Digest",
        "",
        "Generated: 2026-01-02T03:04:05Z",
        "",
        "## Unexplained",
        "- None",
        "",
        "## Job Status",
        "- j.log: stalled (idle 400s)",
        "- process mon: idle (boom)",
        "",
        "## Repo Drift",
        "- None",
        "",
        "## Ledger Summary",
        '- {"x":1}',
        "",
        "## Next Observation Interval",
        "- 600 seconds",
        "",
      ].join("\n"),
    );
    const idle = renderDigest({ repos: {}, ledgerTail: [], jobs: [], processes: [] }, [], NOW);
    expect(idle).toContain("## Job Status\n- No running or stalled jobs observed.\n\n");
    expect(idle).toContain("## Ledger Summary\n- No ledger entries observed.\n\n");
    expect(idle).toContain("- 1800 seconds\n");
  });

  test("config: missing fields listed, sequences checked, repos need a path, defaults", () => {
    const e = (raw: unknown) => {
      try {
        digestConfigFrom(raw, "/b");
        return "ok";
      } catch (x) {
        return errorMessage(x);
      }
    };
    expect(e({ repos: [], ledger_path: "l" })).toBe("Missing digest config fields: job_log_globs, monitor_pgrep_patterns, baseline_path, digest_dir");
    const ok = { repos: ["r"], ledger_path: "l", job_log_globs: [], monitor_pgrep_patterns: [], baseline_path: "b", digest_dir: "d" };
    expect(e({ ...ok, job_log_globs: "*.log" })).toBe("config field must be a sequence: job_log_globs");
    expect(e({ ...ok, repos: [{ name: "x" }] })).toBe("repo config requires path");
    const c: DigestConfig = digestConfigFrom(ok, "/b");
    expect(c).toMatchObject({ repos: [{ name: "r", path: "/b/r" }], ledgerTailLimit: 20, maxIdleSeconds: 360, activeWindowSeconds: 21600 });
    expect(c.finishedMarkers).toEqual(["completed", "cancelled", "canceled", "finished", "done", "landed"]);
    expect(existsSync("/b")).toBe(false);
  });
});
