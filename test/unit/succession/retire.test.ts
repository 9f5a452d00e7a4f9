import { describe, expect, test } from "bun:test";
import { stubRunner, type StubReply } from "../../helpers/stub-runner.ts";
import { processProbe, ttyProbe } from "../../../src/succession/master/probes.ts";
import { retirePredecessor, type RetireInput } from "../../../src/succession/master/retire.ts";
import { detectDuplicates } from "../../../src/succession/master/sessions.ts";
import { lcCtx, LIST, listReply, term } from "../../helpers/lifecycle.ts";

const CLOSE = ["orca", "terminal", "close", "--terminal", "old", "--json"];
const PS_P = ["ps", "-p", "4242", "-o", "pid=,stat="];
const PS_T = ["ps", "-t", "pts/7", "-o", "pid=,stat="];
const present: StubReply = { stdout: " 4242 S+\n" };
const gone: StubReply = { code: 1, stdout: "" };

function run(table: Parameters<typeof stubRunner>[0], inp: Partial<RetireInput> = {}) {
  const runner = stubRunner(table);
  const ctx = lcCtx(runner);
  const p = retirePredecessor(ctx, { selfHandle: "me", processProbe: processProbe(ctx), ttyProbe: ttyProbe(ctx), settleMs: 0, ...inp });
  return { p, runner };
}

const before = listReply(term("me", { title: "master gen 3" }), term("old", { title: "master gen 2", ptyId: "pty-old" }));
const after = listReply(term("me", { title: "master gen 3" }));
const full = { targetHandle: "old", targetPid: 4242, targetTty: "/dev/pts/7", execute: true };

describe("retire (§5.7, D20, D21)", () => {
  test("exact criteria match only their own field and record every attempt", async () => {
    const { p } = run([[LIST, before]], { targetHandle: "old", targetPtyId: "pty-old" });
    const r = await p;
    expect(r.status).toBe("DRY_RUN");
    expect(r.reason).toBe("dry-run only");
    expect(r.target_handle).toBe("old");
    expect(r.match_attempts).toEqual(["me: handle=old -> no-match", "me: pty_id=pty-old -> no-match", "old: handle=old -> handle", "old: pty_id=pty-old -> pty_id"]);
  });
  test("selector mode substring-matches the seven fields; zero and several candidates are REFUSED", async () => {
    const none = await run([[LIST, before]], { selector: "gen 9" }).p;
    expect(none.status).toBe("REFUSED");
    expect(none.reason).toBe("no predecessor candidates; candidates=none; match_attempts=me: selector=gen 9 -> no-match | old: selector=gen 9 -> no-match");
    const many = await run([[LIST, listReply(term("a", { title: "gen 2" }), term("b", { title: "gen 2 copy" }))]], { selector: "gen 2" }).p;
    expect(many.reason).toStartWith("ambiguous predecessor candidates; candidates=a,b; match_attempts=a: selector=gen 2 -> title | b: selector=gen 2 -> title");
    expect(many.target_handle).toBeNull();
  });
  test("self among the candidates is an error, not a report; a bad pid and no criterion too", async () => {
    await expect(run([[LIST, before]], { selector: "master gen" }).p).rejects.toThrow("self_handle matched retirement candidate; refusing to close self");
    await expect(run([], { targetHandle: "old", targetPid: 0 }).p).rejects.toThrow("target_pid must be a positive integer");
    await expect(run([], {}).p).rejects.toThrow("predecessor_selector is required");
  });
  test("CLOSED only when pane, process and tty were all measured", async () => {
    const { p, runner } = run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
        [PS_T, gone],
      ],
      full,
    );
    const r = await p;
    expect(r).toMatchObject({ status: "CLOSED", closed: true, disappearances: { pane: "measured", process: "measured", tty: "measured" } });
    expect(r.reason).toBe("target disappeared after close; three disappearances measured; disappearances=pane=measured,process=measured,tty=measured");
    expect(runner.calls.map((c) => c.argv[0])).toEqual(["orca", "orca", "orca", "ps", "ps"]);
  });
  test("a zombie row is a dead process", async () => {
    const r = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, { stdout: " 4242 Z\n" }],
        [PS_T, gone],
      ],
      full,
    ).p;
    expect(r.status).toBe("CLOSED");
  });
  test("each still_present axis refuses (exit 3 at the CLI)", async () => {
    const pane = await run(
      [
        [LIST, before],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
        [PS_T, gone],
      ],
      full,
    ).p;
    expect(pane.status).toBe("REFUSED");
    expect(pane.reason).toBe("target still present after close; disappearances=pane=still_present,process=measured,tty=measured");
    const proc = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, present],
        [PS_T, gone],
      ],
      full,
    ).p;
    expect(proc.reason).toBe("target process still present after close: pid=4242; disappearances=pane=measured,process=still_present,tty=measured");
    expect(proc.closed).toBe(false);
    const tty = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
        [PS_T, present],
      ],
      full,
    ).p;
    expect(tty.reason).toBe("target tty still present after close: /dev/pts/7; disappearances=pane=measured,process=measured,tty=still_present");
  });
  test("an unmeasurable axis is skipped:<why> and caps the result at CLOSED_PARTIAL (D21)", async () => {
    const noTty = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
      ],
      { ...full, targetTty: undefined },
    ).p;
    expect(noTty.status).toBe("CLOSED_PARTIAL");
    expect(noTty.reason).toBe("target pane disappeared after close; partial measurement (tty=skipped:no target-tty supplied); disappearances=pane=measured,process=measured,tty=skipped:no target-tty supplied");
    const noPs = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, { missing: true }],
        [PS_T, { timedOut: true }],
      ],
      full,
    ).p;
    expect(noPs.status).toBe("CLOSED_PARTIAL");
    expect(noPs.disappearances).toEqual({ pane: "measured", process: "skipped:ps not found", tty: "skipped:ps timed out after 5000 ms" });
    const noPid = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_T, gone],
      ],
      { ...full, targetPid: undefined },
    ).p;
    expect(noPid.disappearances.process).toBe("skipped:no target-pid and no pid reported by terminal list");
    const devOnly = await run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
      ],
      { ...full, targetTty: "/dev/" },
    ).p;
    expect(devOnly.disappearances.tty).toBe("skipped:target-tty has no device name after normalization");
  });
  test("the pid the terminal list reports is used when --target-pid is absent", async () => {
    const withPid = listReply(term("me"), term("old", { processId: 4242 }));
    const r = await run(
      [
        [LIST, [withPid, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
        [PS_T, gone],
      ],
      { ...full, targetPid: undefined },
    ).p;
    expect(r.status).toBe("CLOSED");
  });
  test("a failed close or re-list is REFUSED, never CLOSED", async () => {
    const closeFail = await run(
      [
        [LIST, before],
        [CLOSE, { code: 1, stderr: "terminal_stop_live" }],
      ],
      full,
    ).p;
    expect(closeFail).toMatchObject({ status: "REFUSED", reason: "terminal_stop_live", target_handle: "old", closed: false });
    const relist = await run(
      [
        [LIST, [before, { code: 1, stderr: "boom" }]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, gone],
        [PS_T, gone],
      ],
      full,
    ).p;
    expect(relist.status).toBe("REFUSED");
    expect(relist.reason).toStartWith("target pane not measured after close; disappearances=pane=skipped:re-list failed: boom");
  });
  test("a still-present pid is re-probed until it goes (settle)", async () => {
    const { p } = run(
      [
        [LIST, [before, after]],
        [CLOSE, { stdout: "{}" }],
        [PS_P, [present, present, gone]],
        [PS_T, gone],
      ],
      { ...full, settleMs: 5_000, sleep: async () => {} },
    );
    expect((await p).status).toBe("CLOSED");
  });
});

describe("check-duplicates (§5.6)", () => {
  test("others carrying the marker in any field, disconnected included, self never", async () => {
    const reply = listReply(term("me", { sessionId: "S-1" }), term("twin", { sessionId: "S-1", connected: false }), term("titled", { title: "resume S-1" }), term("other", { sessionId: "S-2" }));
    const ctx = lcCtx(stubRunner([[LIST, reply]]));
    expect((await detectDuplicates(ctx, "S-1", "me")).map((s) => [s.handle, s.connected])).toEqual([
      ["twin", false],
      ["titled", true],
    ]);
    await expect(detectDuplicates(ctx, "", "me")).rejects.toThrow("session_marker is required");
    await expect(detectDuplicates(ctx, "S-1", "")).rejects.toThrow("self_handle is required");
  });
});
