/**
 * The attack table (test/helpers/attacks.ts) against the kernel layers (issue 23, DECISIONS D39), with the real
 * engines: each attack runs as `bash -c CMD` against its own fresh copy of a small product git repository, and
 * every copy's tree (bytes, modes, owners, link targets, file mtimes, .git) is hashed after the batch.
 *   - control: unprotected, every attack must really change its copy (a harmless "attack" proves nothing);
 *   - `dist/mogui sandbox run --deny-write <every copy> -- bash runner`: 0 changes, benign reads still work;
 *   - `srt`: test/e2e/hooks/srt-attacks.test.ts (the same table, the settings `hook install` wrote).
 * One sandbox per batch keeps the file fast; the figures are printed. Without a usable bubblewrap the sandboxed
 * runs are skipped with the reason printed (never counted as a pass).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { attackBase, makeAttackProduct, treeState } from "../../helpers/attack-product.ts";
import { type BatchCase, type BatchResult, judgeBatch, prepareBatch, attackEnv, runTimed } from "../../helpers/attack-run.ts";
import { ATTACKS, BENIGN } from "../../helpers/attacks.ts";
import { binaryPath } from "../../helpers/binary.ts";

let base: string;
let golden: string;
let goldenState: Map<string, string>;
let skipReason: string | null = null;
const figures: string[] = [];
const SENTINEL = "sentinel-writable";

const env = attackEnv;

const run = (argv: string[], e: Record<string, string>, timeoutMs = 50_000) => runTimed(argv, e, timeoutMs);

const changed = (rs: BatchResult[]) => rs.filter((r) => r.diff.length > 0);
const show = (rs: BatchResult[]) => rs.map((r) => `${r.id} ${JSON.stringify(r.cmd)} -> ${r.diff.slice(0, 4).join(", ")}`).join("\n");

beforeAll(async () => {
  base = attackBase("sbx-attacks");
  golden = makeAttackProduct(join(base, "golden"));
  goldenState = treeState(golden);
  const check = await run([binaryPath(), "sandbox", "check"], env(base));
  if (check.code !== 0) skipReason = `mogui sandbox check exit ${check.code}: ${(check.err || check.out).trim().split("\n")[0]}`;
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  if (skipReason) console.log(`SKIPPED (not passed): the sandboxed attack runs: ${skipReason}`);
  for (const f of figures) console.log(f);
});

async function batch(name: string, cases: BatchCase[], wrap: (runner: string, products: string[], root: string) => Promise<string[]>, under = base) {
  const root = join(under, name);
  // A sentinel proves the sandbox is not vacuous: the scratch dir and the product's parent stay writable.
  const b = prepareBatch(golden, root, [...cases, { id: SENTINEL, cmd: "echo ok > $W/sentinel && touch $P/../beside-product" }]);
  const argv = await wrap(b.runner, b.products, root);
  const r = await run(argv, env(root));
  if (!r.out.includes("batch-done")) throw new Error(`${name}: the runner did not finish (exit ${r.code}): ${r.err.slice(0, 500)}`);
  const rs = judgeBatch(b, goldenState);
  const sentinel = rs.pop()!;
  expect({ sentinel: sentinel.status, diff: sentinel.diff }).toEqual({ sentinel: 0, diff: [] });
  return rs;
}

describe("the attack table", () => {
  test("is at least 200 attacks in many classes, ids unique, plus benign reads", () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(ATTACKS.map((a) => a.id)).size).toBe(ATTACKS.length);
    expect(new Set(ATTACKS.map((a) => a.cls)).size).toBeGreaterThanOrEqual(20);
    expect(BENIGN.length).toBeGreaterThanOrEqual(40);
  });

  test("control: unprotected, every attack really changes the product", async () => {
    const rs = await batch("control", ATTACKS, async (runner) => ["bash", runner]);
    const harmless = rs.filter((r) => r.diff.length === 0);
    figures.push(`control (unprotected): ${changed(rs).length} of ${rs.length} attacks changed the product`);
    expect(show(harmless)).toBe("");
  }, 150_000);
});

describe("under mogui sandbox run (bubblewrap)", () => {
  test("0 of the attacks change the product", async () => {
    if (skipReason) return void console.log(`skip: ${skipReason}`);
    const rs = await batch("sandbox-run", ATTACKS, async (runner, products) => [binaryPath(), "sandbox", "run", ...products.flatMap((p) => ["--deny-write", p]), "--", "bash", runner]);
    figures.push(`mogui sandbox run: ${changed(rs).length} of ${rs.length} attacks changed the product`);
    expect(show(changed(rs))).toBe("");
  }, 150_000);

  test("benign reads still work: every one exits 0 and changes nothing", async () => {
    if (skipReason) return void console.log(`skip: ${skipReason}`);
    const rs = await batch("sandbox-benign", BENIGN, async (runner, products) => [binaryPath(), "sandbox", "run", ...products.flatMap((p) => ["--deny-write", p]), "--", "bash", runner]);
    const failed = rs.filter((r) => r.status !== 0 || r.diff.length > 0);
    figures.push(`mogui sandbox run, benign: ${rs.length - failed.length} of ${rs.length} ran and exited 0`);
    expect(failed.map((r) => `${r.id} exit ${r.status}: ${r.cmd}: ${readFileSync(join(r.W, "..", "out.txt"), "utf8").slice(0, 200)}`)).toEqual([]);
  }, 150_000);
});
