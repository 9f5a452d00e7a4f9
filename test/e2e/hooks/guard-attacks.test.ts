/**
 * The attack table (test/helpers/attacks.ts, issue 23) through the static guard ALONE. Each attack is filled in for
 * its own fresh copy of the product (`$P`) and scratch directory (`$W`) and judged by the guard exactly as a Claude
 * Code Bash tool call reaches it (the hook JSON, product_repo configured as the other guard tests configure it, cwd
 * `$W`). Every command the guard ALLOWS is then executed for real with bash in that throwaway copy (cwd `$W`, `P`
 * and `W` exported, as the runner does for the sandbox runs), and the product tree (bytes, modes, owners, symlinks,
 * .git) is hashed before and after. An allowed attack that changed the tree is a bypass; each must be one of the
 * documented limits (docs/hooks.md), listed below with the limit it falls under. Benign read-only commands must stay
 * allowed; the figures are printed at the end.
 *
 * MOGUI_GUARD_ATTACKS_ALL=1 also executes the blocked attacks (a control: each must change the product when run).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../../src/hooks/session/product-path-guard.ts";
import { attackBase, makeAttackProduct } from "../../helpers/attack-product.ts";
import { GIT_ENV } from "../../helpers/git.ts";
import { goldenStateOf, judgeBatch, prepareBatch, type BatchResult } from "../../helpers/attack-run.ts";
import { ATTACKS, BENIGN, fillAttack } from "../../helpers/attacks.ts";
import { GUARD_ATTACKS } from "../../helpers/attacks-guard.ts";

const ENV = "a variable the shell already holds ($P, exported before this call) read at run time";
const RUNTIME = "a path or program computed at run time (base64, rot13)";
const SCRIPT = "a script or program file whose text writes the product";
/**
 * Allowed attacks that do change the product, by id: each is one of the guard's documented limits (docs/hooks.md).
 * The runner exports P and W into the shell, as an earlier tool call could; the guard reads the command text only.
 */
const LIMITS: Record<string, string> = {
  "glob-1": ENV,
  "base64-1": RUNTIME,
  "base64-2": RUNTIME,
  "base64-3": RUNTIME,
  "python-9": RUNTIME,
  "python-10": SCRIPT,
  "script-1": SCRIPT,
  "script-2": SCRIPT,
  "script-4": SCRIPT,
  "script-5": SCRIPT,
};

interface Judged {
  id: string;
  cls: string;
  cmd: string;
  block: boolean;
  reason: string;
}

let base: string;
let judged: Judged[] = [];
let benign: Judged[] = [];
let ran: BatchResult[] = [];
const all = [...ATTACKS, ...GUARD_ATTACKS];

function judge(id: string, cls: string, cmd: string, P: string, W: string): Judged {
  const command = fillAttack(cmd, { P, W });
  const env = { HOME: W, MOGUI_HOME: join(W, "..", "mogui-home"), MOGUI_PRODUCT_REPO: P, PATH: "/usr/local/bin:/usr/bin:/bin" };
  const d = decide({ env, cwd: W }, { tool_name: "Bash", tool_input: { command }, cwd: W, hook_event_name: "PreToolUse" }, W);
  return { id, cls, cmd, block: d.block, reason: d.reason };
}

beforeAll(async () => {
  base = attackBase("guard-attacks");
  const golden = makeAttackProduct(join(base, "golden"));
  const goldenState = goldenStateOf(golden);
  const runAll = process.env.MOGUI_GUARD_ATTACKS_ALL === "1";
  // Judge each attack against the very copy it would run in (paths are filled in per copy).
  const batch = prepareBatch(
    golden,
    join(base, "run"),
    all.map((a) => ({ id: a.id, cmd: a.cmd })),
  );
  judged = batch.cases.map((c, i) => judge(c.id, all[i]!.cls, c.cmd, c.P, c.W));
  const toRun = batch.cases.filter((_, i) => runAll || !judged[i]!.block);
  const run = prepareBatch(
    golden,
    join(base, "exec"),
    toRun.map((c) => ({ id: c.id, cmd: c.cmd })),
  );
  // Re-judge against the copies that really run (same shape of paths, new directories).
  for (const [i, c] of run.cases.entries()) {
    const j = judged.find((x) => x.id === c.id)!;
    const again = judge(c.id, j.cls, c.cmd, c.P, c.W);
    if (again.block !== j.block && !runAll) throw new Error(`verdict of ${c.id} depends on its directory`);
    void i;
  }
  // A git identity, so the commit attacks do what they would on a configured host.
  const p = Bun.spawn(["bash", run.runner], { stdout: "pipe", stderr: "pipe", env: { ...process.env, ...GIT_ENV } });
  await p.exited;
  ran = judgeBatch(run, goldenState);
  const bp = join(base, "benign");
  mkdirSync(bp, { recursive: true });
  const bb = prepareBatch(
    golden,
    bp,
    BENIGN.map((b) => ({ id: b.id, cmd: b.cmd })),
  );
  benign = bb.cases.map((c) => judge(c.id, "benign", c.cmd, c.P, c.W));
}, 240_000);

afterAll(() => {
  if (!process.env.MOGUI_KEEP_TEST_TMP) rmSync(base, { recursive: true, force: true });
  const allowed = judged.filter((j) => !j.block);
  const changed = ran.filter((r) => r.diff.length && !judged.find((j) => j.id === r.id)!.block);
  const outside = changed.filter((r) => !LIMITS[r.id]);
  const benignBlocked = benign.filter((b) => b.block);
  console.log(
    [
      `product-path-guard alone against the attack table: ${judged.length} attacks (${ATTACKS.length} shared + ${GUARD_ATTACKS.length} guard-only), ${allowed.length} allowed and executed`,
      `  bypasses (allowed and changed the product): ${changed.length}, of which outside the documented limits: ${outside.length} (goal 0)`,
      ...outside.map((r) => `    BYPASS ${r.id}: ${r.cmd.replace(/\n/g, "\\n")} -> ${r.diff.slice(0, 3).join(", ")}`),
      `  documented limits among them: ${changed.length - outside.length} (${[ENV, RUNTIME, SCRIPT].map((l) => `${changed.filter((r) => LIMITS[r.id] === l).length} ${l.split(" (")[0]}`).join("; ")})`,
      `  benign read-only commands blocked: ${benignBlocked.length} of ${benign.length}`,
      ...benignBlocked.map((b) => `    blocked ${b.id}: ${b.cmd.replace(/\n/g, "\\n")} (${b.reason})`),
    ].join("\n"),
  );
});

describe("the attack table through the guard alone (issue 23)", () => {
  test("every allowed attack that changes the product is a documented limit", () => {
    const outside = ran.filter((r) => r.diff.length && !judged.find((j) => j.id === r.id)!.block && !LIMITS[r.id]);
    expect(outside.map((r) => `${r.id}: ${r.cmd}`)).toEqual([]);
  });

  test("each listed limit is still allowed and still writes (a change that closes one is noticed)", () => {
    const stale = Object.keys(LIMITS).filter((id) => {
      const r = ran.find((x) => x.id === id);
      return !r || r.diff.length === 0;
    });
    expect(stale).toEqual([]);
  });

  // Three interpreter programs over product files stay blocked (python3 -c, perl -ne, node -e reading $P).
  test("benign read-only commands stay allowed (at most 3 blocked)", () => {
    expect(benign.filter((b) => b.block).length).toBeLessThanOrEqual(3);
  });

  // The shared table has its own control in the sandbox runs; this one proves the guard-only attacks are real.
  test.if(process.env.MOGUI_GUARD_ATTACKS_ALL === "1")("control: every guard-only attack changes the product when run unguarded", () => {
    const ids = new Set(GUARD_ATTACKS.map((a) => a.id));
    const harmless = ran.filter((r) => ids.has(r.id) && r.diff.length === 0);
    expect(harmless.map((r) => r.id)).toEqual([]);
  });
});
