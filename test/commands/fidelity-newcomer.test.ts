// Issue 26 §3: fidelity to the original's contracts (its own test suite, run against mogui). Integer flags accept
// what the original's argparse `type=int` accepts (no upper bound; a lower one only where the reference states it),
// model-drift-audit keeps "no transcript found", the gate's lock wait is D33's 10 s.
import { describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../commands/index.ts";
import { DEFAULT_GATE_LOCK_TIMEOUT_MS, gatePaths } from "../../src/dispatch/gate/paths.ts";
import { parseArgv, UNBOUNDED_MAX, UNBOUNDED_MIN, type MoguiArgsDef } from "../../src/lib/args.ts";
import { runMain } from "../helpers/ctx.ts";
import { tempDir } from "../helpers/paths.ts";

/** Every integer flag that mirrors one of the original's argparse/bash flags, with the lower bound the reference
 * states (the reference; UNBOUNDED_MIN where it states none). Upper bounds: none anywhere. */
const ORIGINAL_INT_FLAGS: Array<[command: string, flag: string, min: number, why: string]> = [
  ["dispatch-gate watch", "max-idle", UNBOUNDED_MIN, "§3 `--max-idle INT` (default 360)"],
  ["master-bootstrap", "budget", 0, "§10 negative -> 'Budget must be non-negative'"],
  ["master-bootstrap-live", "budget", UNBOUNDED_MIN, "§11.1 `--budget INT`"],
  ["master-succeed retire", "target-pid", 1, "`target_pid <= 0` -> SuccessionError"],
  ["acceptance-loop run", "max-iterations", 1, "§13.1 `< 1` -> '--max-iterations must be at least 1'"],
  ["redaction-inventory", "min-count", UNBOUNDED_MIN, "§22 `--min-count INT`"],
  ["conversation-redaction-scan", "limit", 1, "§28.6 `--limit N` (gh needs at least 1)"],
  ["orca-wait", "timeout-ms", 0, "§28.6 `--timeout-ms N` handed to orca"],
];

async function argsOf(name: string): Promise<MoguiArgsDef> {
  const entry = (COMMANDS as Record<string, { load: () => Promise<{ default: unknown }> }>)[name]!;
  const mod = (await entry.load()).default as { args?: MoguiArgsDef; default?: { args?: MoguiArgsDef } };
  return (mod.args ?? mod.default?.args)!;
}

describe("integer flags accept what the original's argparse accepts", () => {
  for (const [cmd, flag, min, why] of ORIGINAL_INT_FLAGS) {
    test(`${cmd} --${flag}: no upper bound, lower bound ${min === UNBOUNDED_MIN ? "none" : min} (${why})`, async () => {
      const defs = await argsOf(cmd);
      const def = defs[flag] as { type: string; min: number; max: number };
      expect(def).toMatchObject({ type: "int", min, max: UNBOUNDED_MAX });
      expect(parseArgv(cmd, [`--${flag}`, "9999999999"], { [flag]: def as never })[flag]).toBe(9_999_999_999);
    });
  }

  test("Python int() spellings: sign, underscores, blanks; not fractions or words", () => {
    const defs: MoguiArgsDef = { n: { type: "int", min: UNBOUNDED_MIN, max: UNBOUNDED_MAX } };
    expect(parseArgv("x", ["--n", "+5"], defs).n).toBe(5);
    expect(parseArgv("x", ["--n", "1_000"], defs).n).toBe(1000);
    expect(parseArgv("x", ["--n", " 7 "], defs).n).toBe(7);
    expect(parseArgv("x", ["--n", "-3"], defs).n).toBe(-3);
    for (const bad of ["1.5", "1__0", "_1", "ten", "99999999999999999999"]) expect(() => parseArgv("x", ["--n", bad], defs)).toThrow(`--n must be a whole number (got '${bad}')`);
    expect(() => parseArgv("x", ["--n", "0"], { n: { type: "int", min: 1, max: UNBOUNDED_MAX } })).toThrow("--n must be a whole number of at least 1 (got '0')");
  });

  test("dispatch-gate watch --max-idle 9999999999 is OK (exit 0); a negative one is STALLED (exit 3), as in the original", async () => {
    const dir = tempDir("fidelity-");
    const log = join(dir, "worker.log");
    writeFileSync(log, "started\n");
    const now = Date.now();
    utimesSync(log, now / 1000 - 60, now / 1000 - 60);
    const ok = await runMain(["dispatch-gate", "watch", "--log", log, "--max-idle", "9999999999"], { env: { MOGUI_HOME: dir }, now: () => now });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: "OK" });
    const neg = await runMain(["dispatch-gate", "watch", "--log", log, "--max-idle", "-1"], { env: { MOGUI_HOME: dir }, now: () => now });
    expect(neg.code).toBe(3);
  });

  test("master-bootstrap --budget -1 is still refused (the reference's own bound)", async () => {
    const r = await runMain(["master-bootstrap", "--charter", "/nonexistent", "--budget", "-1"], { env: { MOGUI_HOME: tempDir() } });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toStartWith("mogui: --budget must be a whole number of at least 0 (got '-1')\n");
  });
});

describe("model-drift-audit with a missing transcript", () => {
  test("keeps the reference's 'no transcript found (session=..., workspace=...)' and adds the path", async () => {
    const missing = join(tempDir(), "nope.jsonl");
    const r = await runMain(["model-drift-audit", "--transcript", missing], { env: {} });
    expect(r).toEqual({ code: 2, stdout: "", stderr: `model-drift-audit: FAIL. no transcript found (session=unset, workspace=unset): ${missing}\n` });
  });
});

describe("the gate's lock wait (D33)", () => {
  test("10 s by default; DISPATCH_GATE_LOCK_TIMEOUT_MS overrides it", () => {
    expect(DEFAULT_GATE_LOCK_TIMEOUT_MS).toBe(10_000);
    expect(gatePaths({ env: { MOGUI_HOME: "/h" }, cwd: "/" }).lockTimeoutMs).toBe(10_000);
    expect(gatePaths({ env: { MOGUI_HOME: "/h", DISPATCH_GATE_LOCK_TIMEOUT_MS: "300" }, cwd: "/" }).lockTimeoutMs).toBe(300);
  });
});
