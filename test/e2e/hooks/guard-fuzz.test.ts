/**
 * product-path-guard fails closed through the compiled binary (issue 23): hostile hook inputs on stdin, as Claude
 * Code sends them, must end in exit 0 or 2 with at most one stderr line and never a stack trace. The in-process fuzz
 * (test/commands/hooks/guard-fuzz.test.ts) runs the big budget; this one is small (MOGUI_GUARD_E2E_FUZZ_N, default
 * 60; MOGUI_GUARD_FUZZ_SEED replays). Also the crash the issue measured: a long commit message heredoc.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, e2eEnv } from "../../helpers/binary.ts";
import { fuzzCase, fuzzWorld } from "../../helpers/guard-fuzz.ts";
import { tempDir } from "../../helpers/paths.ts";
import { prng } from "../../helpers/prng.ts";

const N = Number(process.env.MOGUI_GUARD_E2E_FUZZ_N ?? 60);
const SEED = Number(process.env.MOGUI_GUARD_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const root = tempDir("guard-e2e-fuzz-");
const world = fuzzWorld(root);
mkdirSync(join(root, "home"), { recursive: true });
const env = e2eEnv({ HOME: join(root, "home"), MOGUI_HOME: join(root, "mogui-home"), MOGUI_PRODUCT_REPO: world.product });

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function guard(stdin: Uint8Array, cwd = world.ops): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn([binaryPath(), "hook", "product-path-guard"], { cwd, env, stdin, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

const bash = (command: string) => new TextEncoder().encode(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd: world.ops }));

describe("product-path-guard fails closed (compiled binary)", () => {
  test("the measured crash: a long commit message heredoc is judged, never exit 1", async () => {
    const body = `${"x".repeat(5000)}\nsecond line with a/path and more\n`;
    const commit = `git commit -m "$(cat <<'EOF'\n${body}EOF\n)"`;
    const ops = await guard(bash(commit));
    expect({ code: ops.code, stderr: ops.stderr }).toEqual({ code: 0, stderr: "" });
    const inProduct = await guard(bash(`cd ${world.product} && ${commit}`));
    expect(inProduct.code).toBe(2);
    expect(inProduct.stderr).toStartWith("[product-path-guard] BLOCKED: ");
    const long = await guard(bash(`cat /tmp/${"x".repeat(5000)}`));
    expect(long.code).toBe(0);
  });

  test("a symlink loop, a path through a file, an unreadable input file: exit 2 with one line", async () => {
    for (const command of [`cat ${world.loop}/x`, `touch ${world.file}/x`]) {
      const r = await guard(bash(command));
      expect({ code: r.code, lines: r.stderr.trim().split("\n").length }).toEqual({ code: 2, lines: 1 });
      expect(r.stderr).toContain("cannot tell where");
    }
    const p = Bun.spawn([binaryPath(), "hook", "product-path-guard", "--input-file", root], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    expect(await p.exited).toBe(2);
  });

  test(`${N} hostile inputs on stdin (seed ${SEED}): exit 0 or 2, one line, no stack trace`, async () => {
    console.log(`product-path-guard e2e fuzz: seed ${SEED}, ${N} inputs`);
    const r = prng(SEED);
    const bad: string[] = [];
    for (let i = 0; i < N; i++) {
      const bytes = fuzzCase(r, world);
      const out = await guard(bytes);
      const lines = out.stderr.split("\n").filter(Boolean);
      if ((out.code !== 0 && out.code !== 2) || /\n\s+at\s|internal error/.test(out.stderr) || lines.length > 1) {
        bad.push(`case ${i}: exit ${out.code}: ${new TextDecoder().decode(bytes).slice(0, 120)} -> ${out.stderr.slice(0, 200)}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
