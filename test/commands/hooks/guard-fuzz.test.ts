/**
 * product-path-guard fails closed (issue 23, D39): Claude Code blocks a tool call only on exit 2, so any other exit
 * lets it run. Hostile and random inputs (test/helpers/guard-fuzz.ts) go through the whole command in process
 * (`main`, `--input-file`): every exit must be 0 or 2, stderr at most one line and never a stack trace, and no
 * block may come from an internal error (each of those is a bug the fail-closed wrapper only hides).
 * MOGUI_GUARD_FUZZ_N sets the budget (default 1200), MOGUI_GUARD_FUZZ_SEED replays a run (the seed is printed).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { fuzzCase, fuzzWorld } from "../../helpers/guard-fuzz.ts";
import { tempDir } from "../../helpers/paths.ts";
import { prng } from "../../helpers/prng.ts";

const N = Number(process.env.MOGUI_GUARD_FUZZ_N ?? 1200);
const SEED = Number(process.env.MOGUI_GUARD_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const root = tempDir("guard-fuzz-");
const world = fuzzWorld(root);
const home = join(root, "home");
mkdirSync(home, { recursive: true });
const env = { HOME: home, MOGUI_HOME: join(root, "mogui-home"), MOGUI_PRODUCT_REPO: world.product, PATH: "/usr/bin:/bin" };

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`product-path-guard fuzz (seed ${SEED}, MOGUI_GUARD_FUZZ_SEED replays)`, () => {
  test(`${N} hostile inputs: exit 0 or 2, one line, no stack trace, no internal error`, async () => {
    console.log(`product-path-guard fuzz: seed ${SEED}, ${N} inputs`);
    const r = prng(SEED);
    const input = join(root, "input.json");
    const bad: string[] = [];
    const counts = { 0: 0, 2: 0 } as Record<number, number>;
    for (let i = 0; i < N; i++) {
      const bytes = fuzzCase(r, world);
      writeFileSync(input, bytes);
      const out = await runMain(["hook", "product-path-guard", "--input-file", input], { env, cwd: world.ops });
      counts[out.code] = (counts[out.code] ?? 0) + 1;
      const lines = out.stderr.split("\n").filter(Boolean);
      const why =
        out.code !== 0 && out.code !== 2
          ? `exit ${out.code}`
          : /\n\s+at\s|internal error/.test(out.stderr)
            ? "internal error or stack trace"
            : lines.length > 1
              ? `${lines.length} stderr lines`
              : out.code === 2 && !out.stderr.startsWith("[product-path-guard] BLOCKED: ")
                ? "a block without the BLOCKED line"
                : out.stdout !== ""
                  ? "stdout is not empty"
                  : "";
      if (why) bad.push(`case ${i} (${why}): ${new TextDecoder().decode(bytes).slice(0, 160)} -> ${out.stderr.slice(0, 240)}`);
    }
    console.log(`  exits: 0 x${counts[0] ?? 0}, 2 x${counts[2] ?? 0}`);
    expect(bad.slice(0, 10)).toEqual([]);
  }, 240_000);
});
