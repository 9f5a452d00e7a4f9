import { describe, expect, test } from "bun:test";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { SPAWN_FAILURES, SpawnFailure, SuccessionError } from "../../../src/succession/master/errors.ts";
import { spawnSuccessor, type SpawnInput } from "../../../src/succession/master/spawn.ts";
import { SELECTOR_HINT } from "../../../src/succession/master/spawn-match.ts";
import { lcCtx, LIST, listReply, term } from "../../helpers/lifecycle.ts";

const SEL = "id:r::/w";
const SCOPED = ["orca", "terminal", "list", "--worktree", SEL, "--json"];
const STARTUP = "cd /w && exec claude --model m --dangerously-skip-permissions go";
const CREATE = ["orca", "terminal", "create", "--worktree", SEL, "--title", "Gen 2", "--command", STARTUP, "--json"];
const closeOf = (h: string) => ["orca", "terminal", "close", "--terminal", h, "--json"];
const inp: SpawnInput = { workspaceSelector: SEL, kickoffText: "go", root: "/w", title: "Gen 2", model: "m", agent: "claude" };
const created = (handle: string, worktreeId = "r::/w") => ({ stdout: { ok: true, result: { terminal: { handle, worktreeId, title: "Gen 2" } } } });
const old = term("old", { title: "Gen 1" });
const mine = (h: string) => term(h, { title: "✳ Gen 2" });

/** The exit code the command maps the failure to (a SpawnFailure's row; a SuccessionError is usage, 2) and its line. */
async function fail(p: Promise<unknown>): Promise<[number, string]> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SpawnFailure) return [SPAWN_FAILURES[e.kind].code, e.message];
    if (e instanceof SuccessionError) return [2, e.message];
    throw e;
  }
  throw new Error("expected a SpawnFailure or a SuccessionError");
}

function go(table: Parameters<typeof stubRunner>[0], over: Partial<SpawnInput> = {}) {
  const runner = stubRunner(table);
  return { p: spawnSuccessor(lcCtx(runner), { ...inp, ...over }), runner };
}

describe("spawn (§5.8)", () => {
  test("--dry-run makes no orca call at all", async () => {
    const { p, runner } = go([], { dryRun: true, expectedPlacement: SEL });
    const r = await p;
    expect(runner.calls).toEqual([]);
    expect(r).toMatchObject({ status: "DRY_RUN", handle: null, verified: false, command: CREATE, startup_command: STARTUP });
    expect(r.verification).toMatchObject({ expected_placement: SEL, expected_response_field: "worktreeId", agent: "claude" });
  });
  test("MATCH: the reported handle is live, new, connected and in the worktree", async () => {
    const { p, runner } = go([
      [SCOPED, [listReply(old), listReply(old, mine("new"))]],
      [LIST, listReply(old)],
      [CREATE, created("new")],
    ]);
    const r = await p;
    expect(r).toMatchObject({ status: "CREATED", handle: "new", verified: true, handle_reissued: false, worktree_id: "r::/w" });
    expect(r.verification).toEqual({ requested_worktree: SEL, actual_worktree: "r::/w", result: "MATCH", title_matched: true, liveness_check: "reported handle is live+new+connected in requested worktree" });
    expect(runner.calls.map((c) => c.argv.slice(1, 3).join(" "))).toEqual(["terminal list", "terminal list", "terminal create", "terminal list"]);
  });
  test("MATCH_REISSUED: a stale reported handle, exactly one new titled terminal", async () => {
    const r = await go([
      [SCOPED, [listReply(old), listReply(old, mine("real"), term("other", { title: "shell" }))]],
      [LIST, listReply(old)],
      [CREATE, created("stale")],
    ]).p;
    expect(r).toMatchObject({ handle: "real", handle_reissued: true, verified: true });
    expect(r.verification).toMatchObject({ result: "MATCH_REISSUED", reported_handle: "stale", title_matched: true });
  });
  test("24: no unique titled candidate; nothing is closed", async () => {
    const { p, runner } = go([
      [SCOPED, [listReply(old), listReply(old, mine("a"), mine("b"))]],
      [LIST, listReply(old)],
      [CREATE, created("stale")],
    ]);
    const [code, msg] = await fail(p);
    expect(code).toBe(24);
    expect(msg).toBe(
      `spawn handle stale: reported handle stale is not trusted as live; 2 new connected terminal(s) exist in worktree ${SEL} (a, b), 2 of them carry pane title 'Gen 2' (a, b); the created terminal may still be running unmanaged, reconcile via orca terminal list`,
    );
    expect(runner.calls.some((c) => c.argv[2] === "close")).toBe(false);
  });
  test("25 before create (no create call) and 20 on a failed create", async () => {
    const pre = go([[SCOPED, { code: 1, stderr: "selector_not_found" }]]);
    expect(await fail(pre.p)).toEqual([25, "spawn precheck list failed: selector_not_found"]);
    expect(pre.runner.calls.length).toBe(1);
    expect(
      await fail(
        go([
          [SCOPED, listReply()],
          [LIST, { code: 1 }],
          [CREATE, { code: 1, stdout: "", stderr: "" }],
        ]).p,
      ),
    ).toEqual([20, "spawn terminal create failed: no error output"]);
    expect(
      await fail(
        go([
          [SCOPED, listReply()],
          [LIST, listReply()],
          [CREATE, { stdout: '{"ok":false,"error":{"code":"x","message":"denied"}}' }],
        ]).p,
      ),
    ).toEqual([20, "spawn orca error: denied"]);
  });
  test("22 closes the terminal it can prove it created", async () => {
    const { p, runner } = go([
      [SCOPED, [listReply(old), listReply(old, mine("new"))]],
      [LIST, listReply(old)],
      [CREATE, created("new", "r::/elsewhere")],
      [closeOf("new"), { stdout: "{}" }],
    ]);
    expect(await fail(p)).toEqual([22, `spawn worktree mismatch; closed terminal new: requested ${SEL}, got r::/elsewhere${SELECTOR_HINT}`]);
    expect(runner.calls.at(-1)!.argv).toEqual(closeOf("new"));
  });
  test("22 does NOT close a pre-existing handle, nor one it cannot confirm (global pre-snapshot, title, connection)", async () => {
    const preScoped = await fail(
      go([
        [SCOPED, listReply(old)],
        [LIST, listReply(old)],
        [CREATE, created("old", "r::/x")],
      ]).p,
    );
    expect(preScoped[1]).toBe(`spawn worktree mismatch: requested ${SEL}, got r::/x; reported handle old is pre-existing; terminal not closed${SELECTOR_HINT}`);
    const foreign = term("foreign", { worktreeId: "r::/x", title: "Gen 2" });
    const preGlobal = go([
      [SCOPED, listReply()],
      [LIST, listReply(foreign)],
      [CREATE, created("foreign", "r::/x")],
    ]);
    expect((await fail(preGlobal.p))[1]).toContain("reported handle foreign is pre-existing; terminal not closed");
    expect(preGlobal.runner.calls.some((c) => c.argv[2] === "close")).toBe(false);
    const untitled = go([
      [SCOPED, [listReply(), listReply(term("new", { title: "shell" }))]],
      [LIST, listReply()],
      [CREATE, created("new", "r::/x")],
    ]);
    expect((await fail(untitled.p))[1]).toContain("; terminal not closed; ownership unconfirmed, reconcile via orca terminal list");
    const gone = go([
      [SCOPED, [listReply(), listReply(term("new", { title: "Gen 2", connected: false }))]],
      [LIST, listReply()],
      [CREATE, created("new", "r::/x")],
    ]);
    expect((await fail(gone.p))[1]).toContain("ownership unconfirmed");
  });
  test("21 with a sniffed handle cleans up; 23 when that close fails; 26 on a placement mismatch", async () => {
    const raw = { stdout: '{"ok":true,"result":{"terminal":{"handle":"new"}}}' };
    expect(
      await fail(
        go([
          [SCOPED, [listReply(), listReply(mine("new"))]],
          [LIST, listReply()],
          [CREATE, raw],
          [closeOf("new"), { stdout: "{}" }],
        ]).p,
      ),
    ).toEqual([21, "spawn JSON missing worktreeId; closed terminal new"]);
    const [c23, m23] = await fail(
      go([
        [SCOPED, [listReply(), listReply(mine("new"))]],
        [LIST, listReply()],
        [CREATE, created("new", "r::/x")],
        [closeOf("new"), { code: 1, stderr: "stuck" }],
      ]).p,
    );
    expect(c23).toBe(23);
    expect(m23).toBe(`spawn worktree mismatch: requested ${SEL}, got r::/x and close failed: close error: stuck${SELECTOR_HINT}`);
    const [c26, m26] = await fail(
      go(
        [
          [SCOPED, [listReply(), listReply(mine("new"))]],
          [LIST, listReply()],
          [CREATE, created("new")],
          [closeOf("new"), { stdout: "{}" }],
        ],
        { expectedPlacement: "id:folder:f" },
      ).p,
    );
    expect([c26, m26]).toEqual([26, `spawn placement mismatch; closed terminal new: expected id:folder:f, got r::/w${SELECTOR_HINT}`]);
  });
  test("25 when the liveness list fails, with cleanup through the global list", async () => {
    const { p } = go([
      [SCOPED, [listReply(), { code: 1, stderr: "down" }]],
      [LIST, [listReply(), listReply(mine("new"))]],
      [CREATE, created("new")],
      [closeOf("new"), { stdout: "{}" }],
    ]);
    expect(await fail(p)).toEqual([25, "spawn liveness list failed: down; closed terminal new"]);
  });
  test("required values", async () => {
    expect(await fail(go([], { title: " " }).p)).toEqual([2, "title is required"]);
    expect(await fail(go([], { expectedPlacement: "" }).p)).toEqual([2, "expected_placement is required"]);
  });
});
