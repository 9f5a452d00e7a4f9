// master-succeed spawn through the compiled binary against the plain Orca simulator (fixtures/bin/orca); the odd
// replies come from its faults: a stale reported handle (stale_handle), a create that landed twice
// (stale_handle:2), a foreign handle (foreign_handle), a liveness list failure (terminal list=exit@3+).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

const FOLDER = "id:folder:9b1e4c7d-2a5f-4e8b-b3c6-0d9e8f7a6b5c";
const PRE = "term_f0f0f0f0-1111-4222-8333-444444444444";
const HINT = ". Accepted selector forms are full id:<repoId>::<path>, id:folder:<uuid> for folder workspaces; path: is matched by resolved directory.";

function world(extra: Record<string, string> = {}) {
  const dir = tempDir("mogui-lc-spawn-");
  const env = e2eEnv({ ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "folder", ORCA_SIM_ROOT: dir, ORCA_CLI_COMMAND: "orca", ...extra });
  const spawn = (title: string, ...more: string[]) => runBinary(["master-succeed", "spawn", "--workspace-selector", FOLDER, "--kickoff-text", "Boot", "--root", dir, "--title", title, ...more, "--json"], { env });
  const terminals = async (): Promise<{ handle: string; title: string | null }[]> => {
    const plain = { ...env, ORCA_SIM_FAULT: "" };
    const r = await runBinary(["sim", "orca", "terminal", "list", "--json"], { env: plain });
    return JSON.parse(r.stdout).result.terminals;
  };
  return { dir, env, spawn, terminals };
}

describe("master-succeed spawn end to end (simulator)", () => {
  test("MATCH: created in the folder workspace, verified live, new and connected", async () => {
    const w = world();
    const r = await w.spawn("Gen 2", "--expected-placement", FOLDER);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ status: "CREATED", verified: true, handle_reissued: false, worktree_id: FOLDER.slice(3) });
    expect(j.verification).toMatchObject({ result: "MATCH", title_matched: true, expected_placement: FOLDER });
    expect((await w.terminals()).map((t) => t.handle)).toEqual([PRE, j.handle]);
  });
  test("MATCH with a bare folder:<uuid>: create accepts it, the lists get id:folder: (the measured asymmetry)", async () => {
    const w = world({ ORCA_SIM_CALL_LOG: "" });
    const log = join(w.dir, "calls.jsonl");
    const r = await runBinary(["master-succeed", "spawn", "--workspace-selector", FOLDER.slice(3), "--kickoff-text", "Boot", "--root", w.dir, "--title", "Gen 2", "--json"], { env: { ...w.env, ORCA_SIM_CALL_LOG: log } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "CREATED", verified: true, worktree_id: FOLDER.slice(3), verification: { result: "MATCH" } });
    const calls = (await Bun.file(log).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const worktreeArgs = calls.map((c) => [c.argv.slice(0, 2).join(" "), c.argv.includes("--worktree") ? c.argv[c.argv.indexOf("--worktree") + 1] : null, c.exit]);
    expect(worktreeArgs).toEqual([
      ["terminal list", FOLDER, 0],
      ["terminal list", null, 0],
      ["terminal create", FOLDER.slice(3), 0],
      ["terminal list", FOLDER, 0],
    ]);
  });
  test("MATCH_REISSUED: the reported handle is stale, the one titled new terminal is adopted", async () => {
    const w = world({ ORCA_SIM_FAULT: "terminal create=stale_handle" });
    const r = await w.spawn("Gen 2");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.handle_reissued).toBe(true);
    const reported = String(j.verification.reported_handle);
    expect(j.verification.result).toBe("MATCH_REISSUED");
    expect(reported).toMatch(/^term_[0-9a-f-]{36}$/);
    expect(reported).not.toBe(j.handle);
    expect((await w.terminals()).map((t) => t.handle)).toEqual([PRE, j.handle]);
    const stale = await runBinary(["sim", "orca", "terminal", "show", "--terminal", reported, "--json"], { env: { ...w.env, ORCA_SIM_FAULT: "" } });
    expect(JSON.parse(stale.stdout).error.code).toBe("terminal_handle_stale");
  });
  test("20: create fails; 21: unparseable reply, nothing provably ours to close", async () => {
    const w = world({ ORCA_SIM_FAULT: "terminal create=exit:9" });
    expect(await w.spawn("Gen 2")).toEqual({ code: 20, stdout: "", stderr: "spawn terminal create failed: orca: injected failure\n" });
    const m = world({ ORCA_SIM_FAULT: "terminal create=malformed" });
    expect(await m.spawn("Gen 2")).toEqual({ code: 21, stdout: "", stderr: "invalid spawn JSON; terminal not closed; ownership unconfirmed, reconcile via orca terminal list\n" });
  });
  test("22: wrong worktree, the terminal it created is closed", async () => {
    const w = world();
    const r = await runBinary(["master-succeed", "spawn", "--workspace-selector", "branch:main", "--kickoff-text", "Boot", "--root", w.dir, "--title", "Gen 2"], { env: w.env });
    expect(r.code).toBe(22);
    expect(r.stderr).toMatch(new RegExp(`^spawn worktree mismatch; closed terminal term_[0-9a-f-]+: requested branch:main, got [0-9a-f-]+::${w.dir}/repo\\. Accepted selector forms`));
    expect((await w.terminals()).map((t) => t.handle)).toEqual([PRE]);
  });
  test("22 with a pre-existing handle: ownership unproven, that terminal is NOT closed", async () => {
    const w = world({ ORCA_SIM_FAULT: "terminal create=foreign_handle" });
    // A terminal in the repo's main worktree: the foreign handle the confused reply will name.
    const other = await runBinary(["sim", "orca", "terminal", "create", "--worktree", "branch:main", "--title", "other", "--json"], { env: { ...w.env, ORCA_SIM_FAULT: "" } });
    const { handle, worktreeId } = JSON.parse(other.stdout).result.terminal;
    const r = await w.spawn("Gen 2");
    expect(r.code).toBe(22);
    expect(r.stderr).toBe(`spawn worktree mismatch: requested ${FOLDER}, got ${worktreeId}; reported handle ${handle} is pre-existing; terminal not closed${HINT}\n`);
    expect((await w.terminals()).map((t) => t.handle)).toContain(handle);
  });
  test("23: the cleanup close fails", async () => {
    const w = world({ ORCA_SIM_FAULT: "terminal close=exit:5" });
    const r = await runBinary(["master-succeed", "spawn", "--workspace-selector", "branch:main", "--kickoff-text", "Boot", "--root", w.dir, "--title", "Gen 2"], { env: w.env });
    expect(r.code).toBe(23);
    expect(r.stderr).toContain(" and close failed: close error: orca: injected failure. Accepted selector forms");
    expect((await w.terminals()).length).toBe(2);
  });
  test("24: two new terminals carry the title; nothing is closed", async () => {
    const w = world({ ORCA_SIM_FAULT: "terminal create=stale_handle:2" });
    const r = await w.spawn("Gen 2");
    expect(r.code).toBe(24);
    expect(r.stderr).toMatch(/^spawn handle stale: reported handle term_[0-9a-f-]{36} is not trusted as live; 2 new connected terminal\(s\) exist in worktree id:folder:[0-9a-f-]+ \(term_[^)]+\), 2 of them carry pane title 'Gen 2'/);
    expect((await w.terminals()).length).toBe(3);
  });
  test("25: the precheck list fails before any create; the liveness list fails after it (not closed: unconfirmed)", async () => {
    const pre = world({ ORCA_SIM_FAULT: "terminal list=exit:4" });
    expect(await pre.spawn("Gen 2")).toEqual({ code: 25, stdout: "", stderr: "spawn precheck list failed: orca: injected failure\n" });
    expect((await pre.terminals()).length).toBe(1);
    // Lists 1 and 2 are the scoped and global pre-snapshots; the 3rd (liveness) and the cleanup's lists fail.
    const live = world({ ORCA_SIM_FAULT: "terminal list=exit@3+" });
    const r = await live.spawn("Gen 2");
    expect(r).toEqual({ code: 25, stdout: "", stderr: "spawn liveness list failed: orca: injected failure; terminal not closed; ownership unconfirmed, reconcile via orca terminal list\n" });
    expect((await live.terminals()).length).toBe(2);
  });
  test("26: --expected-placement disagrees; the created terminal is closed", async () => {
    const w = world();
    const r = await w.spawn("Gen 2", "--expected-placement", "id:folder:00000000-0000-4000-8000-000000000000");
    expect(r.code).toBe(26);
    expect(r.stderr).toMatch(/^spawn placement mismatch; closed terminal term_[0-9a-f-]+: expected id:folder:0{8}-0000-4000-8000-0{12}, got folder:9b1e4c7d/);
    expect((await w.terminals()).map((t) => t.handle)).toEqual([PRE]);
  });
  test("--dry-run makes no orca call", async () => {
    const w = world({ ORCA_SIM_CALL_LOG: "" });
    const log = join(w.dir, "calls.jsonl");
    const r = await runBinary(["master-succeed", "--json", "spawn", "--workspace-selector", FOLDER, "--kickoff-text", "Boot", "--root", ".", "--title", "T", "--dry-run"], { env: { ...w.env, ORCA_SIM_CALL_LOG: log } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe("DRY_RUN");
    expect(await Bun.file(log).exists()).toBe(false);
  });
});
