import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { filterRunningMonitors, pgrepProbe } from "../../../src/succession/recovery/monitors.ts";
import { recover } from "../../../src/succession/recovery/recover.ts";
import { verifySuccessor } from "../../../src/succession/master/verify.ts";
import { tempDir } from "../../helpers/paths.ts";
import { lcCtx } from "../../helpers/lifecycle.ts";

const HANDOFF = "## Role State\n\n```\nCurrent Role: Research\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\n```\n\nbody\n";
const git = (dir: string, ...a: string[]) => ["git", "-C", dir, ...a];

function files() {
  const d = tempDir();
  writeFileSync(join(d, "charter.md"), "charter");
  writeFileSync(join(d, "handoff.md"), HANDOFF);
  writeFileSync(join(d, "ledger.jsonl"), ['{"event":"register","track_id":"T1","title":"Parser","ts":1}', "garbage", '{"event":"register","track_id":"T2","title":"Gate","ts":2}', '{"event":"close","track_id":"T2","resolution":"done","ts":3}'].join("\n"));
  return d;
}

describe("recover (§7)", () => {
  test("the full flow: every step, read-only calls only, and a report verify-successor grades", async () => {
    const d = files();
    const runner = stubRunner([
      [git("/repo", "rev-parse", "--short=8", "HEAD"), { stdout: "1a2b3c4d\n" }],
      [git("/repo", "branch", "--show-current"), { stdout: "main\n" }],
      [git("/repo", "--no-optional-locks", "status", "--porcelain"), { stdout: " M x\n" }],
      [["pgrep", "-f", "watch.sh"], { stdout: "11\n12\n" }],
      [["ps", "-p", "11", "-o", "pid=,command="], { stdout: "11 /bin/bash watch.sh --loop\n" }],
      [["ps", "-p", "12", "-o", "pid=,command="], { stdout: "12 grep watch.sh\n" }],
      [["pgrep", "-f", "idle.sh"], { code: 1 }],
    ]);
    const ctx = lcCtx(runner);
    const r = await recover(ctx, { charter: join(d, "charter.md"), handoff: join(d, "handoff.md"), ledger: join(d, "ledger.jsonl"), repos: ["/repo"], monitorPatterns: ["watch.sh", "idle.sh"] }, { process: async () => "", monitor: pgrepProbe(ctx) });
    expect(r.steps.map((s) => `${s.step} ${s.status}: ${s.evidence}`)).toEqual([
      "0 OK: charter exists; Role State restored: Research",
      "1 WARN: handoff exists; Role State block present; body present",
      "1-ledger WARN: active tracks=1; ledger warnings=line 2: invalid JSON",
      "2-3 OK: /repo head=1a2b3c4d branch=main dirty=true status=OK",
      "4 OK: no misses collected; Trace Archive search is manual",
      "5 WARN: watch.sh: running monitor matches=1; idle.sh: no process found",
      "6 OK: successor verification checklist generated",
    ]);
    expect(r.active_tracks.map((t) => t.track_id)).toEqual(["T1"]);
    expect(r.manual_actions).toEqual([
      "Trace Archive search is manual; no automatic search was run.",
      "Terminate then re-arm monitor pattern 'watch.sh' after takeover.",
      "Recite active tracks: T1 (Parser)",
      "Compare predecessor PID command lines before terminating anything.",
      "Append the succession lineage entry after verification.",
    ]);
    // Read-only: nothing but git reads, pgrep and ps ran (the stub throws on anything else).
    expect(new Set(runner.calls.map((c) => c.argv[0]))).toEqual(new Set(["git", "pgrep", "ps"]));
    expect(verifySuccessor(r)).toMatchObject({ status: "PARTIAL", checks: ["open tracks recited", "baseline matched"] });
  });
  test("step 0 MISS fails closed: 1, 2-3 and 5 SKIP, no ledger step, nothing probed", async () => {
    const runner = stubRunner([]);
    const r = await recover(lcCtx(runner), { charter: "/nope/charter.md", handoff: "/nope/h.md", repos: ["/repo"], monitorPatterns: ["x"] }, { process: async () => "", monitor: async () => ({ code: 0, stdout: "", stderr: "" }) });
    expect(r.steps.map((s) => [s.step, s.status])).toEqual([
      ["0", "MISS"],
      ["1", "SKIP"],
      ["2-3", "SKIP"],
      ["4", "WARN"],
      ["5", "SKIP"],
      ["6", "OK"],
    ]);
    expect(r.steps[0]!.evidence).toBe("Charter missing: /nope/charter.md");
    expect(r.manual_actions[0]).toBe("Stop recovery until the charter path is restored.");
    expect(runner.calls).toEqual([]);
    expect(verifySuccessor(r).status).toBe("FAILED");
  });
  test("handoff missing, no ledger, a git failure, a broken bootstrap", async () => {
    const d = files();
    const runner = stubRunner([[git("/bad", "rev-parse", "--short=8", "HEAD"), { code: 128, stderr: "fatal: not a git repository\n" }]]);
    const r = await recover(lcCtx(runner), { charter: join(d, "charter.md"), handoff: join(d, "gone.md"), repos: ["/bad"] }, { process: async () => "", monitor: async () => ({ code: 1, stdout: "", stderr: "" }) });
    expect(r.steps.map((s) => `${s.step} ${s.status}`)).toEqual(["0 WARN", "1 MISS", "2-3 WARN", "4 WARN", "5 OK", "6 OK"]);
    expect(r.steps[1]!.manual_actions).toEqual(["Restore the handoff before continuing recovery."]);
    expect(r.manual_actions).not.toContain("Restore the handoff before continuing recovery.");
    expect(r.steps[3]!.evidence).toBe(`misses: Handoff missing: ${join(d, "gone.md")} | /bad: fatal: not a git repository; Trace Archive search is manual`);
    writeFileSync(join(d, "bad.md"), "## Role State\n```\nCurrent Role: Janitor\nRole Lock: ENABLED\nFrozen: x\nUnlock: y\n```\n");
    const b = await recover(lcCtx(stubRunner([])), { charter: join(d, "charter.md"), handoff: join(d, "bad.md") }, { process: async () => "", monitor: async () => ({ code: 1, stdout: "", stderr: "" }) });
    expect(b.steps[0]).toMatchObject({ status: "MISS", evidence: `Bootstrap failed for charter: ${join(d, "charter.md")}` });
  });
  test("the running-monitor filter: interpreters only, the first non-dash argument must be the script", () => {
    const ps = ["1 /bin/bash /opt/watch.sh", "2 python3 -u watch.sh", "3 pgrep -f watch.sh", "4 bash -c 'echo watch.sh'", "5 zsh other.sh watch.sh", "6 sh"].join("\n");
    expect(filterRunningMonitors(ps, "watch.sh")).toEqual(["1 /bin/bash /opt/watch.sh", "2 python3 -u watch.sh"]);
  });
});
