// master-succeed spawn through the compiled binary against the Orca simulator (and fixtures/lifecycle/orca for
// what the simulator cannot do: a stale reported handle, a foreign handle, a liveness list failure).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../helpers/binary.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const FOLDER = "id:folder:9b1e4c7d-2a5f-4e8b-b3c6-0d9e8f7a6b5c";
const PRE = "term_f0f0f0f0-1111-4222-8333-444444444444";
const HINT = ". Accepted selector forms are full id:<repoId>::<path>, id:folder:<uuid> for folder workspaces; path: is matched by resolved directory.";
const SCRIPTED = join(ROOT, "fixtures", "lifecycle", "orca");

function world(extra: Record<string, string> = {}) {
  const dir = tempDir("mogui-lc-spawn-");
  const env = e2eEnv({ ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "folder", ORCA_SIM_ROOT: dir, ORCA_CLI_COMMAND: SCRIPTED, LIFECYCLE_ORCA_COUNTER: join(dir, "count"), ...extra });
  const spawn = (title: string, ...more: string[]) =>
    runBinary(["master-succeed", "spawn", "--workspace-selector", FOLDER, "--kickoff-text", "Boot", "--root", dir, "--title", title, ...more, "--json"], { env });
  const terminals = async (): Promise<{ handle: string; title: string | null }[]> => {
    const plain = { ...env, ORCA_SIM_FAULT: "", LIFECYCLE_ORCA_MODE: "" };
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
  test("MATCH_REISSUED: the reported handle is stale, the one titled new terminal is adopted", async () => {
    const w = world({ LIFECYCLE_ORCA_MODE: "reissue" });
    const r = await w.spawn("Gen 2");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.handle_reissued).toBe(true);
    expect(j.verification).toMatchObject({ result: "MATCH_REISSUED", reported_handle: "term_00000000-0000-4000-8000-00000000dead" });
    expect((await w.terminals()).map((t) => t.handle)).toContain(j.handle);
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
    const w = world({ LIFECYCLE_ORCA_MODE: "foreign", LIFECYCLE_ORCA_FOREIGN_HANDLE: PRE });
    const r = await w.spawn("Gen 2");
    expect(r.code).toBe(22);
    expect(r.stderr).toBe(`spawn worktree mismatch: requested ${FOLDER}, got elsewhere::/nowhere; reported handle ${PRE} is pre-existing; terminal not closed${HINT}\n`);
    expect((await w.terminals()).map((t) => t.handle)).toContain(PRE);
  });
  test("23: the cleanup close fails", async () => {
    const w = world({ ORCA_SIM_FAULT: "terminal close=exit:5" });
    const r = await runBinary(["master-succeed", "spawn", "--workspace-selector", "branch:main", "--kickoff-text", "Boot", "--root", w.dir, "--title", "Gen 2"], { env: w.env });
    expect(r.code).toBe(23);
    expect(r.stderr).toContain(" and close failed: close error: orca: injected failure. Accepted selector forms");
    expect((await w.terminals()).length).toBe(2);
  });
  test("24: two new terminals carry the title; nothing is closed", async () => {
    const w = world({ LIFECYCLE_ORCA_MODE: "reissue-dup" });
    const r = await w.spawn("Gen 2");
    expect(r.code).toBe(24);
    expect(r.stderr).toMatch(/^spawn handle stale: reported handle term_00000000-0000-4000-8000-00000000dead is not trusted as live; 2 new connected terminal\(s\) exist in worktree id:folder:[0-9a-f-]+ \(term_[^)]+\), 2 of them carry pane title 'Gen 2'/);
    expect((await w.terminals()).length).toBe(3);
  });
  test("25: the precheck list fails before any create; the liveness list fails after it (not closed: unconfirmed)", async () => {
    const pre = world({ ORCA_SIM_FAULT: "terminal list=exit:4" });
    expect(await pre.spawn("Gen 2")).toEqual({ code: 25, stdout: "", stderr: "spawn precheck list failed: orca: injected failure\n" });
    expect((await pre.terminals()).length).toBe(1);
    const live = world({ LIFECYCLE_ORCA_MODE: "liveness-fail" });
    const r = await live.spawn("Gen 2");
    expect(r).toEqual({ code: 25, stdout: "", stderr: "spawn liveness list failed: orca: injected list failure; terminal not closed; ownership unconfirmed, reconcile via orca terminal list\n" });
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
