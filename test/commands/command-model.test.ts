// The command model (D35) through main(argv): groups, the leading-flag rule, did-you-mean, bounded integers,
// declared exits in help, values that look like flags, global --color.
import { describe, expect, test } from "bun:test";
import { COMMANDS } from "../../commands/index.ts";
import { useColor } from "../../src/lib/context.ts";
import { subcommandsOf } from "../../src/lib/registry.ts";
import { runMain } from "../helpers/ctx.ts";
import { tempDir } from "../helpers/paths.ts";

const REG = { commands: COMMANDS };
const GROUPS = [
  ...new Set(
    Object.keys(COMMANDS)
      .filter((k) => k.includes(" "))
      .map((k) => k.split(" ")[0]!),
  ),
];

describe("groups", () => {
  test("every group's --help exits 0 and lists each subcommand with its description; help <group> is the same", async () => {
    expect(GROUPS.length).toBeGreaterThanOrEqual(10);
    for (const g of GROUPS) {
      const r = await runMain([g, "--help"]);
      expect({ g, code: r.code, stderr: r.stderr }).toEqual({ g, code: 0, stderr: "" });
      for (const sub of subcommandsOf(REG, g)) expect(r.stdout).toMatch(new RegExp(`\\n  ${sub}: +\\S`));
      expect((await runMain(["help", g])).stdout).toBe(r.stdout);
    }
  });

  test("a bare group is a usage error (exit 2) that still lists the subcommands with descriptions", async () => {
    const r = await runMain(["tracks"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("mogui: 'mogui tracks' needs a subcommand: one of register, update, close, list\n  register: Register a work track");
    expect(r.stderr).toEndWith("Run 'mogui tracks --help' for usage.\n");
  });

  test("flags before the subcommand are the subcommand's (one rule for every group)", async () => {
    const env = { MOGUI_HOME: tempDir() };
    const ledger = `${tempDir()}/w.jsonl`;
    const a = await runMain(["tracks", "--json", "--ledger", ledger, "register", "T-1", "--title", "x"], { env });
    expect(a.code).toBe(0);
    const b = await runMain(["tracks", "list", "--json", "--ledger", ledger], { env });
    expect(await runMain(["tracks", "--ledger", ledger, "--json", "list"], { env })).toEqual(b);
    expect(b.stdout).toContain('"track_id":"T-1"');
    // --debug is global for a group whose old router row was a passthrough command, too.
    expect((await runMain(["dispatch-gate", "--debug", "--ledger", ledger, "report", "--json"], { env })).code).toBe(0);
    const bad = await runMain(["tracks", "--all", "register", "T-2", "--title", "y"], { env });
    expect(bad).toEqual({ code: 2, stdout: "", stderr: "mogui: unknown flag --all for 'mogui tracks'\nRun 'mogui tracks --help' for usage.\n" });
  });
});

describe("did you mean", () => {
  test("unknown command, subcommand and flag get the nearest name", async () => {
    expect((await runMain(["worker-reep"])).stderr).toStartWith("mogui: unknown command 'worker-reep' (did you mean 'worker-reap'?)");
    expect((await runMain(["tracks", "lst"])).stderr).toStartWith("mogui: unknown subcommand 'lst' for 'mogui tracks' (did you mean 'list'?)");
    expect((await runMain(["tracks", "list", "--al"])).stderr).toStartWith("mogui: unknown flag --al for 'mogui tracks list' (did you mean --all?)");
    expect((await runMain(["zzzzzz"])).stderr).toBe("mogui: unknown command 'zzzzzz'\nRun 'mogui --help' for usage.\n");
  });
});

describe("typed args", () => {
  test("a bounded integer is parsed and range-checked by the strict layer", async () => {
    for (const v of ["0", "3600001", "1.5", "ten"]) {
      const r = await runMain(["worker-reap", "--task-id", "t", "--dry-run", "--timeout-ms", v]);
      expect(r).toEqual({ code: 2, stdout: "", stderr: `mogui: --timeout-ms must be a whole number from 1 to 3600000 (got '${v}')\nRun 'mogui worker-reap --help' for usage.\n` });
    }
  });

  test("a value that is not one of the command's flags is a value; one of its flags is not", async () => {
    const env = { MOGUI_HOME: tempDir() };
    const ok = await runMain(["tracks", "register", "T-9", "--title", "-5", "--json"], { env });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('"title":"-5"');
    expect((await runMain(["tracks", "register", "T-10", "--title", "---"], { env })).code).toBe(0);
    const bad = await runMain(["tracks", "register", "T-8", "--title", "--json"], { env });
    expect(bad.stderr).toStartWith("mogui: flag --title needs a value");
  });
});

describe("declared exits", () => {
  test("help and help exit-codes render a converted command's declared exits", async () => {
    const h = await runMain(["tracks", "close", "--help"]);
    expect(h.stdout).toContain("EXIT CODES\n  0  the event was appended; the track's new state is on stdout\n  2  usage, or the work ledger");
    const all = await runMain(["help", "exit-codes"]);
    expect(all.stdout).toContain("mogui tracks close\n  0  the event was appended");
    expect(all.stdout).toContain("mogui sim orca\n  0  the simulated call succeeded");
  });

  test("a named exit thrown from run carries its declared code (tracks: refused = 3)", async () => {
    const env = { MOGUI_HOME: tempDir() };
    const r = await runMain(["tracks", "close", "T-404", "--resolution", "gone"], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toStartWith("tracks: ");
  });
});

describe("--color", () => {
  test("always/never win; FORCE_COLOR forces; NO_COLOR and a pipe turn it off", async () => {
    expect(useColor({ env: {}, color: "always" }, false)).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: "1" }, color: "never" }, true)).toBe(false);
    expect(useColor({ env: { FORCE_COLOR: "1" } }, false)).toBe(true);
    expect(useColor({ env: { NO_COLOR: "1" } }, true)).toBe(false);
    expect(useColor({ env: {} }, true)).toBe(true);
    expect((await runMain(["--color", "sometimes", "tracks", "list"])).code).toBe(2);
    expect((await runMain(["tracks", "--help", "--color=never"])).code).toBe(0);
  });
});
