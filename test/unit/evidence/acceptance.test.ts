/**
 * The acceptance library (reference §13): case book rules, the pure verdict, the loop with in-memory proposer and
 * evaluator functions, the config messages, the visibility predicate, shlex, and the vendor-token rule.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CaseBook, caseFromMapping, loadCasebook, parseSplit, renderSplitMarkdown, VISIBLE_SPLITS, type VerificationCase } from "../../../src/evidence/acceptance/casebook.ts";
import { AcceptanceConfigError, loadAcceptanceConfig, type AcceptanceConfig } from "../../../src/evidence/acceptance/config.ts";
import { readCandidate, type Candidate } from "../../../src/evidence/acceptance/candidate.ts";
import { inPlaceGuard, LoopConfigError, runAcceptanceLoop, type LoopDeps } from "../../../src/evidence/acceptance/loop.ts";
import { RegressionLog } from "../../../src/evidence/acceptance/regression-log.ts";
import { commandEvaluator, markInPlace, type Evaluator, type Proposer } from "../../../src/evidence/acceptance/seams.ts";
import { shlexSplit, ShlexError } from "../../../src/evidence/acceptance/shlex.ts";
import { combinedPassed, decide, isComplete, scoreResults, type RawResult } from "../../../src/evidence/acceptance/verdict.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const C = (caseId: string, split: VerificationCase["split"], stratum: string, origin: VerificationCase["origin"] = "seed"): VerificationCase => ({
  caseId,
  split,
  stratum,
  command: ["check", caseId],
  origin,
});
const BOOK = new CaseBook([C("t1", "train", "a"), C("t2", "train", "b"), C("h1", "holdout", "a"), C("h2", "holdout", "b"), C("s1", "scorecard", "z")]);
const err = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return errorMessage(e);
  }
  return "no error";
};

afterEach(() => {
  VISIBLE_SPLITS.clear();
  VISIBLE_SPLITS.add("train");
});

describe("case book (§13.3)", () => {
  test("split aliases are case-insensitive and trimmed; unknown split is an error", () => {
    expect(["visible", " Train ", "PRIVATE", "holdout", "Acceptance", "scorecard"].map(parseSplit)).toEqual(["train", "train", "holdout", "holdout", "scorecard", "scorecard"]);
    expect(err(() => parseSplit("test"))).toBe("unknown split: test");
  });

  test("case entries: required fields, origin, command", () => {
    expect(err(() => caseFromMapping({ split: "train", stratum: "a" }))).toBe("case_id is required");
    expect(err(() => caseFromMapping({ case_id: " ", split: "train", stratum: "a" }))).toBe("case_id is required");
    expect(err(() => caseFromMapping({ case_id: "x", split: "train" }))).toBe("case x: stratum is required");
    expect(err(() => caseFromMapping({ case_id: "x", stratum: "a" }))).toBe("case x: split is required");
    expect(err(() => caseFromMapping({ case_id: "x", split: "train", stratum: "a", origin: "magic" }))).toBe("case x: unknown origin magic");
    expect(caseFromMapping({ case_id: "x", split: "visible", stratum: "a", command: ["a", 1, "b"] })).toEqual({ caseId: "x", split: "train", stratum: "a", command: ["a", "b"], origin: "seed" });
    expect(caseFromMapping({ case_id: "x", split: "train", stratum: "a", command: "a b" }).command).toEqual([]);
  });

  test("validate: non-empty, unique ids, both gated splits, equal seed strata (regression cases ignored)", () => {
    expect(err(() => new CaseBook([]).validate())).toBe("case book must define at least one case");
    expect(err(() => new CaseBook([C("a", "train", "x"), C("a", "holdout", "x")]).validate())).toBe("duplicate case_id: a");
    expect(err(() => new CaseBook([C("a", "train", "x")]).validate())).toBe("split holdout must include at least one case");
    expect(err(() => new CaseBook([C("a", "holdout", "x")]).validate())).toBe("split train must include at least one case");
    expect(err(() => new CaseBook([C("a", "train", "x"), C("b", "train", "y"), C("c", "holdout", "x")]).validate())).toBe("train and holdout must cover the same seed strata; got train=['x', 'y'] holdout=['x']");
    expect(() => new CaseBook([C("a", "train", "x"), C("b", "holdout", "x"), C("r", "holdout", "only-here", "regression")]).validate()).not.toThrow();
    expect(() => BOOK.validate()).not.toThrow();
  });

  test("loadCasebook: an object with cases or a list; shapes checked", () => {
    expect(loadCasebook({ cases: [{ case_id: "a", split: "train", stratum: "x" }] }).caseIds()).toEqual(["a"]);
    expect(loadCasebook([{ case_id: "a", split: "train", stratum: "x" }]).caseIds()).toEqual(["a"]);
    expect(err(() => loadCasebook({ cases: "nope" }))).toBe("cases must be a list");
    expect(err(() => loadCasebook([1]))).toBe("case entry must be an object");
  });

  test("manifests, visibility and the split markdown", () => {
    expect(Object.keys(BOOK.manifest())).toEqual(["train", "holdout", "scorecard"]);
    expect(Object.keys(BOOK.visibleManifest())).toEqual(["train"]);
    expect(renderSplitMarkdown(BOOK)).toBe(
      "# Verification Split Manifest\n\n## train (visible)\n\n- `a` [t1] origin=`seed`\n- `b` [t2] origin=`seed`\n\n## holdout (private)\n\n- `a` [h1] origin=`seed`\n- `b` [h2] origin=`seed`\n\n## scorecard (private)\n\n- `z` [s1] origin=`seed`\n",
    );
    VISIBLE_SPLITS.add("holdout");
    expect(Object.keys(BOOK.visibleManifest())).toEqual(["train", "holdout"]);
    expect(renderSplitMarkdown(BOOK)).toContain("## holdout (visible)");
  });

  test("regression log: promote pins once, apply re-admits as holdout, the book's definition wins", () => {
    const path = join(tempDir(), "reg.jsonl");
    const log = new RegressionLog(path, () => 1_700_000_000_500);
    expect(log.promote([C("t1", "train", "a"), C("h1", "holdout", "a")], 0)).toEqual(["t1", "h1"]);
    expect(log.promote([C("t1", "train", "a"), C("gone", "holdout", "q")], 2)).toEqual(["gone"]);
    writeFileSync(path, `${readFileSync(path, "utf8")}not json\n`);
    const rows = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .slice(0, 3)
      .map((l) => JSON.parse(l));
    expect(rows[0]).toEqual({ case_id: "t1", split: "train", stratum: "a", command: ["check", "t1"], origin: "regression", ts: 1_700_000_000.5, iteration: 0, observed_split: "train" });
    expect(log.cases().map((c) => [c.caseId, c.origin])).toEqual([
      ["t1", "regression"],
      ["h1", "regression"],
      ["gone", "regression"],
    ]);
    const applied = log.apply(BOOK);
    expect(applied.cases.find((c) => c.caseId === "t1")!.split).toBe("train");
    expect(applied.cases.find((c) => c.caseId === "gone")).toEqual({ caseId: "gone", split: "holdout", stratum: "q", command: ["check", "gone"], origin: "regression" });
  });
});

describe("verdict (§13.4)", () => {
  const gated = BOOK.gatedCases();
  const res = (ids: string[]): RawResult[] => gated.map((c) => ({ caseId: c.caseId, passed: ids.includes(c.caseId) }));

  test("a missing result is a failure; split and stratum come from the book, not the evaluator", () => {
    const card = scoreResults("x", gated, [
      { caseId: "t1", passed: 1, split: "holdout", stratum: "evil" },
      { caseId: "h1", passed: true },
      { caseId: "nope", passed: true },
    ]);
    expect(card.results.map((r) => [r.caseId, r.split, r.stratum, r.passed, r.detail])).toEqual([
      ["t1", "train", "a", true, ""],
      ["t2", "train", "b", false, "missing result"],
      ["h1", "holdout", "a", true, ""],
      ["h2", "holdout", "b", false, "missing result"],
    ]);
    expect(card.splits.train).toEqual({ split: "train", passed: 1, total: 2, failedCaseIds: ["t2"] });
    expect(combinedPassed(card)).toBe(2);
    expect(isComplete(card)).toBe(false);
  });

  test("strict increase only; NO_CANDIDATE_CHANGE even when higher; scorecard never gates", () => {
    const cur = scoreResults("c", gated, res(["t1", "h1"]));
    expect(decide(cur, scoreResults("n", gated, res(["t1", "h1", "t2"])))).toEqual({ accepted: true, reason: "PASS_COUNT_INCREASED", currentCombined: 2, candidateCombined: 3 });
    expect(decide(cur, scoreResults("n", gated, res(["t2", "h2"]))).reason).toBe("NO_PASS_COUNT_INCREASE");
    expect(decide(cur, scoreResults("n", gated, res([]))).reason).toBe("NO_PASS_COUNT_INCREASE");
    expect(decide(cur, scoreResults("n", gated, res(["t1", "t2", "h1", "h2"])), false)).toEqual({ accepted: false, reason: "NO_CANDIDATE_CHANGE", currentCombined: 2, candidateCombined: 4 });
    const withScorecard = scoreResults("s", BOOK.cases, [...res(["t1", "h1"]), { caseId: "s1", passed: true }]);
    expect(combinedPassed(withScorecard)).toBe(2);
    expect(isComplete(scoreResults("e", [], []))).toBe(false);
  });
});

// ------------------------------------------------------------------------------------------------------------ loop

function config(over: Partial<AcceptanceConfig> = {}): AcceptanceConfig {
  const dir = tempDir();
  return {
    name: "unit",
    configPath: join(dir, "c.json"),
    runDir: join(dir, "run"),
    workspaceRoot: join(dir, "ws"),
    maxIterations: 3,
    proposerRuntime: "p",
    proposerModel: null,
    proposerTimeoutSeconds: 10,
    regressionLog: null,
    ...over,
  };
}

/** An evaluator over a mutable set of passing ids (the "workspace"). */
function world(initial: string[]) {
  const passing = new Set(initial);
  const calls: string[] = [];
  const evaluator: Evaluator = async (cases, hooks) => {
    calls.push(hooks.label);
    return cases.map((c) => ({ caseId: c.caseId, passed: passing.has(c.caseId) }));
  };
  return { passing, evaluator, calls };
}

const baseline: Candidate = { label: "baseline", ref: "", surfaces: [], summary: "" };

function proposer(plan: ((i: number) => { add?: string[]; remove?: string[]; surfaces?: string[] } | null)[], w: ReturnType<typeof world>): Proposer & { seen: string[] } {
  const seen: string[] = [];
  const fn = async (p: { iteration: number; workspaceDir: string }) => {
    for (const f of readdirSync(p.workspaceDir)) seen.push(readFileSync(join(p.workspaceDir, f), "utf8"));
    const step = plan[p.iteration - 1]?.(p.iteration) ?? null;
    if (!step) return null;
    for (const id of step.add ?? []) w.passing.add(id);
    for (const id of step.remove ?? []) w.passing.delete(id);
    return { label: `iter-00${p.iteration}`, ref: "", surfaces: step.surfaces ?? ["x"], summary: `step ${p.iteration}` };
  };
  return Object.assign(fn, { seen });
}

const deps = (over: Partial<LoopDeps> & Pick<LoopDeps, "proposer" | "evaluator">): LoopDeps => ({ config: config(), casebook: BOOK, baseline, clock: () => 1_700_000_000_000, ...over });

describe("the loop (§13.5)", () => {
  test("stops at once when the baseline is complete; the scorecard is evaluated once and reused", async () => {
    const w = world(["t1", "t2", "h1", "h2"]);
    const p = proposer([], w);
    const { report } = await runAcceptanceLoop(deps({ proposer: p, evaluator: w.evaluator }));
    expect(report.iterations).toEqual([]);
    expect(w.calls).toEqual(["baseline", "baseline-scorecard"]);
    expect(report.finalScorecard).toBe(report.baselineScorecard);
    expect(p.seen).toEqual([]);
  });

  test("accept, reject + on_reject, then a no-change candidate stops the loop", async () => {
    const w = world(["t1", "h1"]);
    const rejected: string[] = [];
    const p = proposer([() => ({ add: ["t2"] }), () => ({ remove: ["h1"], add: ["h2"] }), () => ({ surfaces: [] })], w);
    const onReject = async (c: Candidate) => {
      rejected.push(c.label);
      w.passing.add("h1");
      w.passing.delete("h2");
    };
    const d = deps({ proposer: markInPlace(p), evaluator: markInPlace(w.evaluator), onReject });
    const { report } = await runAcceptanceLoop(d);
    expect(report.iterations.map((i) => [i.iteration, i.startingLabel, i.verdict?.reason])).toEqual([
      [1, "baseline", "PASS_COUNT_INCREASED"],
      [2, "iter-001", "NO_PASS_COUNT_INCREASE"],
      [3, "iter-001", "NO_CANDIDATE_CHANGE"],
    ]);
    expect(rejected).toEqual(["iter-002"]);
    expect(report.final.label).toBe("iter-001");
    // The unchanged candidate is not evaluated; the final scorecard is evaluated for the new final.
    expect(w.calls).toEqual(["baseline", "baseline-scorecard", "iter-001", "iter-002", "iter-001-scorecard"]);
    const dec3 = JSON.parse(readFileSync(join(d.config.runDir, "history/visible/iterations/003/decision.json"), "utf8"));
    expect(dec3).toMatchObject({ decision: "rejected", reason: "NO_CANDIDATE_CHANGE", changed_surfaces: [], candidate_combined: 3, current_combined: 3 });
    const hist = JSON.parse(readFileSync(join(d.config.runDir, "history/visible/iterations/003/proposer_workspace/history.json"), "utf8"));
    expect(hist).toEqual([
      { iteration: 1, decision: "accepted", reason: "PASS_COUNT_INCREASED", changed_surfaces: ["x"] },
      { iteration: 2, decision: "rejected", reason: "NO_PASS_COUNT_INCREASE", changed_surfaces: ["x"] },
    ]);
  });

  test("no candidate: the iteration is recorded and the loop stops", async () => {
    const w = world(["h1"]);
    const { report } = await runAcceptanceLoop(deps({ proposer: proposer([() => null], w), evaluator: w.evaluator }));
    expect(report.iterations).toEqual([{ iteration: 1, startingLabel: "baseline", candidate: null, verdict: null, promotedRegressions: [] }]);
  });

  test("the proposer sees only visible failures and the visible casebook (and follows the predicate)", async () => {
    const w = world([]);
    const p = proposer([() => null], w);
    await runAcceptanceLoop(deps({ proposer: p, evaluator: w.evaluator }));
    const all = p.seen.join("\n");
    expect(all).toContain("`t1` [a]: failed");
    expect(all).toContain("Visible score: 0/2");
    for (const secret of ["h1", "h2", "s1", "holdout", "scorecard"]) expect(all).not.toContain(secret);
    VISIBLE_SPLITS.add("holdout");
    const p2 = proposer([() => null], w);
    await runAcceptanceLoop(deps({ proposer: p2, evaluator: w.evaluator }));
    expect(p2.seen.join("\n")).toContain("`h1` [a]: failed");
    expect(p2.seen.join("\n")).not.toContain("s1");
  });

  test("the in-place guard: max >= 2 without on_reject names who mutates", () => {
    const plain = (async () => null) as Proposer;
    const ev = (async () => []) as Evaluator;
    expect(err(() => inPlaceGuard(0, plain, ev, false))).toBe("max_iterations must be at least 1");
    expect(() => inPlaceGuard(2, plain, ev, false)).not.toThrow();
    expect(() =>
      inPlaceGuard(
        1,
        markInPlace(async () => null),
        markInPlace(async () => []),
        false,
      ),
    ).not.toThrow();
    expect(() =>
      inPlaceGuard(
        3,
        markInPlace(async () => null),
        markInPlace(async () => []),
        true,
      ),
    ).not.toThrow();
    expect(
      err(() =>
        inPlaceGuard(
          2,
          markInPlace(async () => null),
          ev,
          false,
        ),
      ),
    ).toStartWith("proposer mutates the workspace in place; pass on_reject");
    expect(
      err(() =>
        inPlaceGuard(
          2,
          plain,
          markInPlace(async () => []),
          false,
        ),
      ),
    ).toStartWith("evaluator mutates the workspace in place");
    expect(
      err(() =>
        inPlaceGuard(
          2,
          markInPlace(async () => null),
          markInPlace(async () => []),
          false,
        ),
      ),
    ).toBe("proposer and evaluator mutate the workspace in place; pass on_reject to restore it after a rejected candidate, or set max_iterations=1. Iterating past a rejection without restoring would evaluate the rejected tree.");
    expect(() => inPlaceGuard(2, plain, ev, false)).not.toThrow(LoopConfigError);
  });

  test("readCandidate: missing / invalid / non-list surfaces -> null; proposal.md fallback", () => {
    const dir = tempDir();
    expect(readCandidate(dir, "l")).toBeNull();
    for (const bad of ["{", "[]", '{"surfaces": "a"}']) {
      writeFileSync(join(dir, "candidate.json"), bad);
      expect(readCandidate(dir, "l")).toBeNull();
    }
    writeFileSync(join(dir, "candidate.json"), '{"surfaces": ["a", " ", 3, " b "], "ref": "r1"}');
    writeFileSync(join(dir, "proposal.md"), "\n  why  \n");
    expect(readCandidate(dir, "l")).toEqual({ label: "l", ref: "r1", surfaces: ["a", "b"], summary: "why" });
  });
});

describe("command evaluator (§13.5)", () => {
  test("argv per case in the workspace root with a timeout; empty command, failure tail, missing, timeout", async () => {
    const runner = stubRunner([
      [["ok"], { code: 0, stdout: "fine\n" }],
      [["bad"], { code: 3, stdout: "out line\n", stderr: "first\nlast err\n\n" }],
      [["quiet"], { code: 5 }],
      [["gone"], { missing: true }],
      [["slow"], { timedOut: true }],
    ]);
    let t = 0;
    const ev = commandEvaluator({ runner, env: {}, now: () => (t += 250) }, "/ws", 2000);
    const mk = (id: string, command: string[]): VerificationCase => ({ caseId: id, split: "train", stratum: "s", command, origin: "seed" });
    const progress: string[] = [];
    const out = await ev([mk("a", ["ok"]), mk("b", ["bad"]), mk("c", []), mk("d", ["quiet"]), mk("e", ["gone"]), mk("f", ["slow"])], {
      label: "x",
      onResult: (i, n, r) => progress.push(`${i}/${n}:${String(r.passed)}`),
    });
    expect(out.map((r) => [r.caseId, r.passed, r.detail])).toEqual([
      ["a", true, ""],
      ["b", false, "last err"],
      ["c", false, "case has no command"],
      ["d", false, "exit 5"],
      ["e", false, "executable not found: gone"],
      ["f", false, "timed out after 2s"],
    ]);
    expect(out[0]!.durationS).toBe(0.25);
    expect(runner.calls.every((c) => c.opts?.cwd === "/ws" && c.opts?.timeoutMs === 2000)).toBe(true);
    expect(progress).toEqual(["1/6:true", "2/6:false", "3/6:false", "4/6:false", "5/6:false", "6/6:false"]);
    expect(ev.mutatesWorkspaceInPlace).toBe(true);
  });
});

describe("config (§13.2, D26)", () => {
  const write = (body: unknown) => {
    const p = join(tempDir(), "acc.json");
    writeFileSync(p, typeof body === "string" ? body : JSON.stringify(body));
    return p;
  };
  const good = {
    name: " demo ",
    proposer: { runtime: " Claude " },
    cases: [
      { case_id: "a", split: "train", stratum: "x" },
      { case_id: "b", split: "holdout", stratum: "x" },
    ],
  };
  const msg = (body: unknown) => {
    const p = write(body);
    try {
      loadAcceptanceConfig(p, { HOME: "/home/u" });
      return "ok";
    } catch (e) {
      expect(e).toBeInstanceOf(AcceptanceConfigError);
      return errorMessage(e).replace(p, "<cfg>");
    }
  };

  test("defaults and path resolution against the config's directory", () => {
    const p = write({ ...good, regression_log: "~/reg.jsonl" });
    const dir = join(p, "..");
    const { config, casebook } = loadAcceptanceConfig(p, { HOME: "/home/u" });
    expect(config).toEqual({
      name: "demo",
      configPath: p,
      runDir: join(dir, "runs", "demo"),
      workspaceRoot: dir,
      maxIterations: 3,
      proposerRuntime: "claude",
      proposerModel: null,
      proposerTimeoutSeconds: 1800,
      regressionLog: "/home/u/reg.jsonl",
    });
    expect(casebook.caseIds()).toEqual(["a", "b"]);
  });

  test("every message names the file; case book errors are config errors (exit 2, D26)", () => {
    expect(msg("{")).toBe("invalid config JSON: <cfg>");
    expect(msg("[]")).toBe("<cfg>: config must be a JSON object");
    expect(msg({ ...good, name: " " })).toBe("<cfg>: config requires a non-empty 'name'");
    expect(msg({ ...good, proposer: [] })).toBe("<cfg>: 'proposer' must be an object");
    expect(msg({ ...good, proposer: { runtime: "gpt" } })).toBe("<cfg>: unsupported proposer runtime 'gpt'; expected one of claude, codex, cursor-agent");
    expect(msg({ ...good, proposer: {} })).toBe("<cfg>: unsupported proposer runtime ''; expected one of claude, codex, cursor-agent");
    expect(msg({ ...good, proposer: { runtime: "codex", model: 5 } })).toBe("<cfg>: 'proposer.model' must be a string or null");
    expect(msg({ ...good, max_iterations: true })).toBe("<cfg>: 'max_iterations' must be a positive integer");
    expect(msg({ ...good, max_iterations: 0 })).toBe("<cfg>: 'max_iterations' must be a positive integer");
    expect(msg({ ...good, proposer: { runtime: "codex", timeout_seconds: 1.5 } })).toBe("<cfg>: 'proposer.timeout_seconds' must be a positive integer");
    expect(msg({ ...good, cases: [{ case_id: "a", split: "train", stratum: "x" }] })).toBe("<cfg>: split holdout must include at least one case");
    expect(msg({ ...good, cases: "missing.json" })).toMatch(/^cannot read case book: .*missing\.json$/);
    expect(err(() => loadAcceptanceConfig("/nonexistent/acc.json", {}))).toBe("cannot read config: /nonexistent/acc.json");
  });
});

describe("shlex and the vendor-token rule", () => {
  test("shlexSplit splits like a POSIX shell and runs nothing", () => {
    expect(shlexSplit(`git checkout -- .`)).toEqual(["git", "checkout", "--", "."]);
    expect(shlexSplit(`a 'b c' "d \\"e\\" $x" f\\ g ''`)).toEqual(["a", "b c", 'd "e" $x', "f g", ""]);
    expect(shlexSplit("rm -rf /; echo hi")).toEqual(["rm", "-rf", "/;", "echo", "hi"]);
    expect(() => shlexSplit("'open")).toThrow(ShlexError);
  });

  test("src/evidence/acceptance never names a vendor CLI or its flags (they live in src/evidence/adapter/profile.ts)", () => {
    const dir = join(ROOT, "src", "evidence", "acceptance");
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), "utf8");
      for (const token of ["claude", "codex", "cursor", "--trust"]) expect({ f, token, found: text.includes(token) }).toEqual({ f, token, found: false });
    }
    expect(existsSync(join(ROOT, "src", "evidence", "adapter", "profile.ts"))).toBe(true);
  });
});

describe("writes stay inside the run root", () => {
  test("a config name that would walk out of runs/ is refused; atomic writes replace a planted symlink, never follow it", async () => {
    const p = join(tempDir(), "acc.json");
    writeFileSync(p, JSON.stringify({ name: "../../etc", proposer: { runtime: "codex" }, cases: [] }));
    expect(err(() => loadAcceptanceConfig(p, {}))).toBe(`${p}: 'name' must not contain '/' or '\\' or be '.' or '..'`);
    const { atomicWrite } = await import("../../../src/evidence/acceptance/layout.ts");
    const { symlinkSync, lstatSync } = await import("node:fs");
    const dir = tempDir();
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "keep\n");
    symlinkSync(victim, join(dir, "report.json"));
    symlinkSync(victim, join(dir, `.report.json.${process.pid}.tmp`));
    atomicWrite(join(dir, "report.json"), "new\n");
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
    expect(lstatSync(join(dir, "report.json")).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, "report.json"), "utf8")).toBe("new\n");
  });
});
