/** Tier windows: the window cache and the backwards tail reader agree with a plain full scan in every case. */
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tailRows } from "../../../src/dispatch/gate/tail.ts";
import { parseTierPolicy } from "../../../src/lib/config/tier-policy.ts";
import { tierWindowAgents } from "../../../src/dispatch/gate/window.ts";
import { indexDir } from "../../../src/dispatch/gate/sidecar.ts";
import { LedgerError } from "../../../src/lib/ledger.ts";
import { tempDir } from "../../helpers/paths.ts";

const policy = (w = 100) => parseTierPolicy("p", JSON.stringify({ version: 2, tiers: { top: ["m-top"], eff: ["m-eff"] }, fanout_caps: { top: 9 }, window_seconds: w }));
const row = (ts: number, extra: Record<string, unknown> = {}) => `${JSON.stringify({ ts, decision: "ALLOW", model: "m-top", n_agents: 1, ...extra })}\n`;

/** The reference semantics, by brute force. */
function naive(path: string, w: number, tier: string, now: number): number {
  let used = 0;
  for (const l of readFileSync(path, "utf8").split("\n")) {
    if (!l.trim()) continue;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(l);
    } catch {
      continue;
    }
    if (r.decision !== "ALLOW" || "job_id" in r || "event" in r || "kind" in r) continue;
    if (typeof r.ts !== "number" || r.ts < now - w || typeof r.n_agents !== "number" || r.n_agents < 1) continue;
    const t = typeof r.tier === "string" ? r.tier : typeof r.model === "string" && r.model.toLowerCase() === "m-top" ? "top" : typeof r.model === "string" && r.model === "m-eff" ? "eff" : "unknown";
    if (t === tier) used += r.n_agents;
  }
  return used;
}

describe("tier window cache", () => {
  test("matches a full scan while rows are appended, the window slides, and the cache is deleted", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, "");
    let now = 1000;
    for (let step = 0; step < 60; step++) {
      appendFileSync(l, row(now - (step % 7), { n_agents: 1 + (step % 3) }) + row(now, { model: "m-eff" }) + row(now, { tier: "top", model: "x" }) + row(now, { job_id: "j" }));
      if (step % 11 === 0) appendFileSync(l, `${JSON.stringify({ ts: now, event: "dispatch_submitted", dispatch_id: "d" })}\n`);
      if (step === 30) rmSync(indexDir(l), { recursive: true });
      now += 7;
      for (const tier of ["top", "eff", "unknown"]) expect([step, tier, tierWindowAgents(l, policy(), tier, now)]).toEqual([step, tier, naive(l, 100, tier, now)]);
    }
  });

  test("D38: a dispatch_aborted row removes its check ALLOW (sha + attempt) from the window, cached or rebuilt", () => {
    const l = join(tempDir(), "l.jsonl");
    const check = (ts: number, sha: string, attempt: number) => row(ts, { contract_sha: sha, attempt, tier: "top" });
    const abort = (ts: number, sha: string, attempt: number) => `${JSON.stringify({ ts, event: "dispatch_aborted", contract_sha: sha, attempt, runtime: "codex", step: "task-create" })}\n`;
    writeFileSync(l, check(900, "a", 1) + check(901, "a", 2) + check(902, "b", 1));
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(3); // the cache now holds all three
    appendFileSync(l, abort(903, "a", 1)); // a forward catch-up drops exactly that entry
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(2);
    appendFileSync(l, abort(904, "c", 1) + abort(905, "a", 9)); // cancelling nothing in the window changes nothing
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(2);
    rmSync(indexDir(l), { recursive: true }); // a backwards rebuild meets the abort row first
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(2);
    appendFileSync(l, abort(906, "b", 1));
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(1);
    // A cache written before D38 (entries without the abort key) is rebuilt, never trusted.
    const cache = join(indexDir(l), "window.json");
    const old = JSON.parse(readFileSync(cache, "utf8"));
    writeFileSync(cache, JSON.stringify({ ...old, format: undefined, entries: old.entries.map((e: unknown[]) => e.slice(0, 4)).concat([[949, "top", null, 5]]) }));
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(1);
  });

  test("a longer window than the cache holds, a replaced ledger, or a tier renamed by policy: still exact", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, row(100) + row(500) + row(900));
    expect(tierWindowAgents(l, policy(100), "top", 950)).toBe(1);
    expect(tierWindowAgents(l, policy(1000), "top", 950)).toBe(3);
    writeFileSync(l, row(940, { n_agents: 4 }));
    expect(tierWindowAgents(l, policy(100), "top", 950)).toBe(4);
    const renamed = parseTierPolicy("q", JSON.stringify({ version: 2, tiers: { gold: ["m-top"] }, fanout_caps: {}, window_seconds: 100 }));
    expect(tierWindowAgents(l, renamed, "gold", 950)).toBe(4);
  });

  test("torn tail is skipped then counted once complete; a corrupt line in the catch-up names its line", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, `${row(900)}{"ts":900,"decision":"ALL`);
    const warnings: string[] = [];
    expect(tierWindowAgents(l, policy(), "top", 950, (w) => warnings.push(w.message))).toBe(1);
    appendFileSync(l, 'OW","model":"m-top","n_agents":2}\n');
    expect(tierWindowAgents(l, policy(), "top", 950)).toBe(3);
    appendFileSync(l, `${row(901)}[1]\n`);
    try {
      tierWindowAgents(l, policy(), "top", 950);
      throw new Error("expected a LedgerError");
    } catch (e) {
      expect(e).toBeInstanceOf(LedgerError);
      expect((e as LedgerError).line).toBe(4);
    }
  });
});

describe("tailRows", () => {
  test("newest first, stops past the slack, handles lines longer than a chunk and multi-byte text", () => {
    const l = join(tempDir(), "l.jsonl");
    const long = "é".repeat(700_000);
    writeFileSync(l, `${row(1) + row(600) + row(1000, { note: long }) + row(1001)}\n${row(999)}`);
    const seen: number[] = [];
    tailRows(l, 950, (r) => seen.push(r.ts as number));
    expect(seen).toEqual([999, 1001, 1000]);
    const all: number[] = [];
    tailRows(l, 0, (r) => all.push(r.ts as number));
    expect(all).toEqual([999, 1001, 1000, 600, 1]);
  });

  test("a corrupt line names its line; a torn last line is a warning unless completeOnly", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, `${row(1)}oops\n${row(2)}{"ts":3`);
    const w: number[] = [];
    expect(() =>
      tailRows(
        l,
        0,
        () => {},
        (x) => w.push(x.line),
      ),
    ).toThrow(`${l}:2: corrupt line`);
    expect(w).toEqual([4]);
    const quiet: number[] = [];
    writeFileSync(l, `${row(1)}{"ts":3`);
    tailRows(
      l,
      0,
      (r) => quiet.push(r.ts as number),
      () => quiet.push(-1),
      true,
    );
    expect(quiet).toEqual([1]);
  });
});
