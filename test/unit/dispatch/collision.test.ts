// collisionCheck in process: which dispatches count as open (D7), the 64-dispatch window, gh only with
// MOGUI_PRODUCT_GITHUB (D3), and fail-open on every error.
import { afterEach, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collisionCheck, GH_BUDGET_MS, MAX_DISPATCHES, ORCA_BUDGET_MS, warningLine } from "../../../src/dispatch/pipeline/collision.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import type { RunResult } from "../../../src/lib/runner.ts";
import { tempDir } from "../../helpers/paths.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";

let dir: string;
let statuses: Record<string, string | null>;
let calls: string[][];
let gh: (argv: string[]) => Partial<RunResult>;

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
function ctx(env: Record<string, string> = {}): Ctx {
  return unitCtx({
    env: { ORCA_CLI_COMMAND: "orca-x", ...env },
    cwd: dir,
    self: ["/m"],
    runner: async (argv) => {
      const a = [...argv];
      calls.push(a);
      const base = { argv: a, code: 0, signal: null, stdout: "", stderr: "", timedOut: false, missing: false };
      if (a[0] === "git") return { ...base, stdout: "src/a.ts\0src/b.ts\0" };
      if (a[0] === "gh") return { ...base, ...gh(a) };
      const task = a[a.indexOf("--task") + 1]!;
      const st = statuses[task];
      if (st === undefined) return { ...base, code: 1, stdout: '{"ok":false,"error":{"code":"runtime_error","message":"x"}}' };
      return { ...base, stdout: JSON.stringify({ id: "1", ok: true, result: { dispatch: st === null ? null : { id: `ctx_${task}`, task_id: task, status: st } }, _meta: {} }) };
    },
  });
}

function contract(name: string, scope: string): string {
  const p = join(dir, "contracts", name);
  writeFileSync(p, `# ${name}\n- Scope: ${scope}\n`);
  return p;
}
const ledger = () => join(dir, "ledger.jsonl");
function rows(list: object[]) {
  writeFileSync(ledger(), `${list.map((r) => JSON.stringify(r)).join("\n")}\n`);
}
const reg = (p: string, task: string) => ({ decision: "ALLOW", contract_sha: sha(p), job_id: `ctx_${task}`, orchestration_task: task });

beforeEach(() => {
  dir = tempDir("collision-unit-");
  mkdirSync(join(dir, "contracts"));
  statuses = {};
  calls = [];
  gh = () => ({ code: 1 });
});

describe("contracts in flight", () => {
  test("open statuses warn; every settled status of D7 (any case) does not", async () => {
    const mine = contract("mine.md", "`src/a.ts`");
    const settled = ["completed", "accepted", "failed", "abandoned", "circuit_broken", "cancelled", "expired", "REVOKED"];
    const open = ["dispatched", "pending", "RUNNING"];
    const all = [...settled, ...open];
    const list = all.map((st, i) => {
      statuses[`t${i}`] = st;
      return reg(contract(`c${i}.md`, "src/a.ts"), `t${i}`);
    });
    rows(list);
    const found = await collisionCheck(ctx(), mine, ledger());
    expect(found.map((c) => c.owner).sort()).toEqual(open.map((_, i) => `c${settled.length + i}.md (task t${settled.length + i})`).sort());
    expect(found.map(warningLine)[0]).toMatch(/^WARNING: scope overlap with c\d+\.md \(task t\d+\) on src\/a\.ts$/);
  });

  test("no dispatch, an Orca error, or a blank status: not open", async () => {
    const mine = contract("mine.md", "`src/a.ts`");
    statuses = { t1: null, t3: "" };
    rows([reg(contract("a.md", "src/a.ts"), "t1"), reg(contract("b.md", "src/a.ts"), "t2"), reg(contract("c.md", "src/a.ts"), "t3")]);
    expect(await collisionCheck(ctx(), mine, ledger())).toEqual([]);
  });

  test("only the newest 64 registered dispatches are looked at; check rows and DENY rows do not count", async () => {
    const mine = contract("mine.md", "`src/a.ts`");
    const old = contract("old.md", "src/a.ts");
    const other = contract("other.md", "docs/x.md");
    statuses.old = "dispatched";
    const filler = Array.from({ length: MAX_DISPATCHES }, (_, i) => reg(other, `f${i}`));
    rows([reg(old, "old"), ...filler, { decision: "ALLOW", contract_sha: sha(old) }, { decision: "DENY", contract_sha: sha(old), job_id: "x", orchestration_task: "old" }]);
    expect(await collisionCheck(ctx(), mine, ledger())).toEqual([]);
    rows([reg(old, "old"), ...filler.slice(1)]);
    expect((await collisionCheck(ctx(), mine, ledger())).map((c) => c.owner)).toEqual(["old.md (task old)"]);
    expect(calls.filter((c) => c[0] === "orca-x")).toHaveLength(1); // disjoint scopes never reach Orca
  });
});

describe("open PRs (D3)", () => {
  test("only with MOGUI_PRODUCT_GITHUB; a failing gh is silence", async () => {
    const mine = contract("mine.md", "src/");
    gh = (a) => (a[2] === "list" ? { stdout: '[{"number":7},{"number":8}]' } : a[3] === "7" ? { stdout: '{"files":[{"path":"src/b.ts"}]}' } : { code: 1 });
    expect(await collisionCheck(ctx(), mine, ledger())).toEqual([]);
    expect(calls.some((c) => c[0] === "gh")).toBe(false);
    expect(await collisionCheck(ctx({ MOGUI_PRODUCT_GITHUB: "o/r" }), mine, ledger())).toEqual([{ owner: "PR #7", files: ["src/b.ts"] }]);
    gh = () => ({ missing: true, code: null });
    expect(await collisionCheck(ctx({ MOGUI_PRODUCT_GITHUB: "o/r" }), mine, ledger())).toEqual([]);
    gh = () => ({ stdout: "not json" });
    expect(await collisionCheck(ctx({ MOGUI_PRODUCT_GITHUB: "o/r" }), mine, ledger())).toEqual([]);
  });
});

describe("time budgets: a slow source stops being asked, what was found is kept", () => {
  afterEach(() => setSystemTime());
  // Each call "takes" 40% of the budget on the system clock, so the third one starts past the deadline.
  const slow = (budget: number) => setSystemTime(new Date(Date.now() + budget * 0.4));

  test("gh: no `pr view` after GH_BUDGET_MS", async () => {
    const mine = contract("mine.md", "src/");
    gh = (a) => {
      if (a[2] === "list") return { stdout: '[{"number":1},{"number":2},{"number":3},{"number":4}]' };
      slow(GH_BUDGET_MS);
      return { stdout: '{"files":[{"path":"src/b.ts"}]}' };
    };
    const found = await collisionCheck(ctx({ MOGUI_PRODUCT_GITHUB: "o/r" }), mine, ledger());
    expect(found.map((c) => c.owner)).toEqual(["PR #1", "PR #2", "PR #3"]);
    expect(calls.filter((c) => c[0] === "gh" && c[2] === "view").map((c) => c[3])).toEqual(["1", "2", "3"]);
  });

  test("orca: no dispatch-show after ORCA_BUDGET_MS", async () => {
    const mine = contract("mine.md", "`src/a.ts`");
    const list = ["t1", "t2", "t3", "t4"].map((t) => {
      statuses[t] = "dispatched";
      return reg(contract(`${t}.md`, "src/a.ts"), t);
    });
    rows(list);
    const base = ctx();
    const inner = base.runner;
    base.runner = async (argv, opts) => {
      if (argv[0] === "orca-x") slow(ORCA_BUDGET_MS);
      return inner(argv, opts);
    };
    // The ledger is read newest first: t4, t3, t2 are asked; t1 comes after the deadline.
    expect((await collisionCheck(base, mine, ledger())).map((c) => c.owner)).toEqual(["t4.md (task t4)", "t3.md (task t3)", "t2.md (task t2)"]);
    expect(calls.filter((c) => c[0] === "orca-x")).toHaveLength(3);
  });
});

test("fail-open: corrupt ledger, unreadable contract", async () => {
  const mine = contract("mine.md", "`src/a.ts`");
  writeFileSync(ledger(), "garbage\n{}\n");
  contract("b.md", "src/a.ts");
  expect(await collisionCheck(ctx(), mine, ledger())).toEqual([]);
  expect(await collisionCheck(ctx(), join(dir, "nope.md"), ledger())).toEqual([]);
});
