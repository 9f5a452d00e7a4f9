/**
 * The attack table (test/helpers/attacks.ts) under `srt`, Anthropic's sandbox runtime (the engine of Claude Code's
 * sandbox), configured with exactly the filesystem section `dist/mogui hook install --product ...` wrote: Claude
 * Code's `sandbox.filesystem.denyWrite` (`//abs`) is srt's `filesystem.denyWrite` (`/abs`: srt takes literal paths),
 * and every product copy and scratch dir is inside srt's `allowWrite`, the worst case (a product under the session's
 * writable cwd), which denyWrite must still cover. Each attack runs against its own fresh copy of a product git repo;
 * every copy is hashed after the batch: 0 changes. Skipped, with the reason printed, where bubblewrap is unusable.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { srtDenyWrite } from "../../../src/hooks/sandbox/layers.ts";
import { makeAttackProduct, treeState } from "../../helpers/attack-product.ts";
import { judgeBatch, prepareBatch, attackEnv, runTimed } from "../../helpers/attack-run.ts";
import { ATTACKS } from "../../helpers/attacks.ts";
import { binaryPath } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const SRT = join(ROOT, "node_modules", ".bin", "srt");
const SENTINEL = "sentinel-writable";
// srt mounts a /dev of its own, so the batch lives on disk, not on /dev/shm.
let base: string;
let skipReason: string | null = null;
const env = attackEnv;

const run = (argv: string[], e: Record<string, string>, timeoutMs = 140_000) => runTimed(argv, e, timeoutMs);

beforeAll(async () => {
  base = tempDir("srt-attacks-");
  const check = await run([binaryPath(), "sandbox", "check"], env(base));
  if (check.code !== 0) skipReason = `bubblewrap unusable (mogui sandbox check exit ${check.code}: ${(check.err || check.out).trim().split("\n")[0]})`;
  else if (!Bun.which("socat", { PATH: "/usr/bin:/bin:/usr/local/bin" })) skipReason = "socat is not installed (srt needs it on Linux)";
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  if (skipReason) console.log(`SKIPPED (not passed): the srt attack run: ${skipReason}`);
});

describe("under srt with the configuration hook install wrote", () => {
  test("0 of the attacks change the product", async () => {
    if (skipReason) return void console.log(`skip: ${skipReason}`);
    const golden = makeAttackProduct(join(base, "golden"));
    const goldenState = treeState(golden);
    const root = join(base, "srt");
    const b = prepareBatch(golden, root, [...ATTACKS, { id: SENTINEL, cmd: "echo ok > $W/sentinel && touch $P/../beside-product" }]);
    const settingsPath = join(root, "claude-settings.json");
    const inst = await run([binaryPath(), "hook", "install", "--host", "claude", "--settings", settingsPath, ...b.products.flatMap((p) => ["--product", p])], env(root));
    expect(inst.code).toBe(0);
    const claude = JSON.parse(readFileSync(settingsPath, "utf8"));
    expect(claude.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false });
    const denyWrite: string[] = claude.sandbox.filesystem.denyWrite;
    expect(denyWrite.length).toBe(b.products.length);
    const srtSettings = { network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: [root], denyWrite: srtDenyWrite(denyWrite) } };
    const srtPath = join(root, "srt-settings.json");
    writeFileSync(srtPath, JSON.stringify(srtSettings, null, 2));
    const r = await run([SRT, "--settings", srtPath, "bash", b.runner], env(root));
    if (!r.out.includes("batch-done")) throw new Error(`srt: the runner did not finish (exit ${r.code}): ${r.err.slice(0, 500)}`);
    const rs = judgeBatch(b, goldenState);
    const sentinel = rs.pop()!;
    // Not vacuous: the scratch dir and the product's parent stayed writable.
    expect({ sentinel: sentinel.status, diff: sentinel.diff }).toEqual({ sentinel: 0, diff: [] });
    const changed = rs.filter((x) => x.diff.length > 0);
    console.log(`srt with hook install's denyWrite: ${changed.length} of ${rs.length} attacks changed the product`);
    expect(changed.map((x) => `${x.id} ${JSON.stringify(x.cmd)} -> ${x.diff.slice(0, 4).join(", ")}`)).toEqual([]);
  }, 150_000);
});
