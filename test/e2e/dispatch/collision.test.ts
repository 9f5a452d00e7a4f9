// dispatch-collision-check (reference §4.6, D3) through the binary: always exit 0, only WARNING lines; open PRs via
// a fake `gh` (only with MOGUI_PRODUCT_GITHUB), other contracts via the ledger + the Orca simulator.
import { beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { sh } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const OPEN_TASK = "task_1a2b3c4d5e6f"; // dispatched in the basic scenario
const DONE_TASK = "task_0c0c0c0c0c0c";

let root: string;
let product: string;
let contracts: string;
let fakeBin: string;

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
function contract(name: string, scope: string): string {
  const p = join(contracts, name);
  writeFileSync(p, `# ${name}\n- Goal: something\n- Scope: ${scope}\n- Acceptance: tests\n`);
  return p;
}
const allowRow = (contractPath: string, task: string, job: string) => ({ ts: 1, decision: "ALLOW", reason: "OK", contract_sha: sha(contractPath), job_id: job, orchestration_task: task, runtime: "codex" });

beforeEach(() => {
  root = tempDir("collision-e2e-");
  product = join(root, "product");
  contracts = join(root, "contracts");
  fakeBin = join(root, "bin");
  for (const d of [join(product, "src", "auth"), contracts, fakeBin]) mkdirSync(d, { recursive: true });
  for (const f of ["src/login.ts", "src/auth/session.ts", "src/auth/token.ts", "docs.md"]) writeFileSync(join(product, f), "x\n");
  sh(product, "init", "-q", "-b", "main");
  sh(product, "add", ".");
  // gh: `pr list` -> PR 12; `pr view 12` -> its files. Every call is logged.
  writeFileSync(join(fakeBin, "gh"), `#!/bin/sh\necho "$*" >> "${root}/gh.log"\ncase "$1 $2" in\n"pr list") echo '[{"number":12}]';;\n"pr view") echo '{"files":[{"path":"src/login.ts"},{"path":"README.md"}]}';;\nesac\n`);
  chmodSync(join(fakeBin, "gh"), 0o755);
  const s = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8"));
  s.tasks.push({ id: DONE_TASK, run_id: "run_0a1b2c3d4e5f", spec: "done", status: "completed", deps: "[]" });
  s.dispatches.push({ id: "ctx_0c0c0c0c0c0c", run_id: "run_0a1b2c3d4e5f", task_id: DONE_TASK, assignee_handle: "term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", status: "completed" });
  writeFileSync(join(root, "scenario.json"), JSON.stringify(s));
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  const e = e2eEnv({ MOGUI_HOME: join(root, "home"), ORCA_SIM_STATE: join(root, "orca.json"), ORCA_SIM_SCENARIO: join(root, "scenario.json"), ORCA_SIM_ROOT: root, ...extra });
  return { ...e, PATH: `${fakeBin}:${e.PATH}` };
}

function setup(): string {
  const mine = contract("mine.md", "`src/login.ts`, src/auth/");
  const b = contract("b.md", "`src/auth/session.ts`");
  const c = contract("c.md", "`docs.md`");
  const d = contract("d.md", "`src/auth/token.ts`");
  const rows = [allowRow(b, OPEN_TASK, "ctx_1"), allowRow(c, OPEN_TASK, "ctx_2"), allowRow(d, DONE_TASK, "ctx_3"), { ts: 2, decision: "ALLOW", reason: "OK", contract_sha: sha(b), runtime: "codex" }];
  mkdirSync(join(root, "home"), { recursive: true });
  writeFileSync(join(root, "home", "dispatch-ledger.jsonl"), `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return mine;
}

describe("dispatch-collision-check", () => {
  test("open PR files and an open sibling contract overlap; settled and disjoint ones do not", async () => {
    const mine = setup();
    const r = await runBinary(["dispatch-collision-check", mine], { env: env({ MOGUI_PRODUCT_GITHUB: "acme/app" }), cwd: product });
    expect(r).toEqual({
      code: 0,
      stdout: `WARNING: scope overlap with PR #12 on src/login.ts\nWARNING: scope overlap with b.md (task ${OPEN_TASK}) on src/auth/session.ts\n`,
      stderr: "",
    });
    expect(readFileSync(join(root, "gh.log"), "utf8")).toBe("pr list --repo acme/app --state open --limit 100 --json number\npr view 12 --repo acme/app --json files\n");
  });

  test("D3: without MOGUI_PRODUCT_GITHUB gh is never called; MOGUI_PRODUCT_REPO (a local path) is not a GitHub repo", async () => {
    const mine = setup();
    const r = await runBinary(["dispatch-collision-check", mine], { env: env({ MOGUI_PRODUCT_REPO: product }), cwd: product });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`WARNING: scope overlap with b.md (task ${OPEN_TASK}) on src/auth/session.ts\n`);
    expect(existsSync(join(root, "gh.log"))).toBe(false);
  });

  test("gh missing: skipped silently", async () => {
    const mine = setup();
    const e = env({ MOGUI_PRODUCT_GITHUB: "acme/app" });
    e.PATH = e
      .PATH!.split(":")
      .filter((d) => d !== fakeBin)
      .join(":");
    const r = await runBinary(["dispatch-collision-check", mine], { env: e, cwd: product });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).not.toContain("PR #");
  });

  test("explicit ledger argument wins over the default", async () => {
    const mine = setup();
    const empty = join(root, "empty.jsonl");
    writeFileSync(empty, "");
    expect(await runBinary(["dispatch-collision-check", mine, empty], { env: env(), cwd: product })).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("fail-open: Orca not running, a corrupt ledger, a missing contract, no scope: exit 0 and silence", async () => {
    const mine = setup();
    const noOrca = env();
    delete noOrca.ORCA_SIM_STATE;
    expect(await runBinary(["dispatch-collision-check", mine], { env: noOrca, cwd: product })).toEqual({ code: 0, stdout: "", stderr: "" });
    writeFileSync(join(root, "home", "dispatch-ledger.jsonl"), "{not json\n{}\n");
    expect(await runBinary(["dispatch-collision-check", mine], { env: env(), cwd: product })).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await runBinary(["dispatch-collision-check", join(root, "nope.md")], { env: env(), cwd: product })).toEqual({ code: 0, stdout: "", stderr: "" });
    writeFileSync(mine, "# no scope here\n");
    expect(await runBinary(["dispatch-collision-check", mine], { env: env(), cwd: product })).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});
