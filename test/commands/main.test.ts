import { describe, expect, test } from "bun:test";
import { COMMANDS, type CommandEntry } from "../../commands/index.ts";
import { EVERY_COMMAND, type ExitCodeRow } from "../../src/lib/exits.ts";
import { exitRows, exitRowsFor } from "../../src/lib/help.ts";
import { versionInfo, versionLine } from "../../src/lib/version.ts";
import { runMain } from "../helpers/ctx.ts";

describe("main(argv): global behaviour", () => {
  test("--version prints one line on stdout, exit 0; --json the same fields; anything else is a usage error", async () => {
    const r = await runMain(["--version"]);
    expect(r).toEqual({ code: 0, stdout: `${versionLine()}\n`, stderr: "" });
    // From source nothing is baked in, and the line says so instead of inventing a commit or a date.
    expect(r.stdout).toMatch(/^mogui \d+\.\d+\.\d+ \(dev, [a-z]+-[a-z0-9]+, unbuilt; template \d+\.\d+\.\d+\)\n$/);
    expect(JSON.parse((await runMain(["--version", "--json"])).stdout)).toEqual(versionInfo());
    expect((await runMain(["--version", "--nope"])).code).toBe(2);
  });

  test("no arguments and --help print the root help on stdout", async () => {
    for (const argv of [[], ["--help"], ["-h"], ["help"]]) {
      const r = await runMain(argv);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("USAGE\n  mogui <command> [subcommand] [flags]");
      for (const [name, e] of Object.entries(COMMANDS as Record<string, CommandEntry>)) if (!e.hidden) expect(r.stdout).toContain(`${name}:`);
    }
  });

  test("unknown command: exit 2, one line plus the hint on stderr, nothing on stdout", async () => {
    const r = await runMain(["no-such-command"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("mogui: unknown command 'no-such-command'\nRun 'mogui --help' for usage.\n");
  });

  test("unknown global flag and a bare group are usage errors", async () => {
    expect((await runMain(["--nope"])).code).toBe(2);
    const g = await runMain(["sim"]);
    expect(g.code).toBe(2);
    expect(g.stderr).toContain("'mogui sim' needs a subcommand: one of orca, install-shims, herdr\n  orca: The stateful Orca CLI simulator");
  });

  test("help <cmd> and <cmd> --help print the same text with the command's exit codes", async () => {
    const a = await runMain(["help", "worker-reap"]);
    const b = await runMain(["worker-reap", "--help"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toContain("USAGE\n  mogui worker-reap (--task-id <id> | --dispatch-id <id>)");
    expect(a.stdout).toContain("EXIT CODES\n  0  reaped");
    expect(a.stdout).toContain("  3  dispatch not settled");
  });

  test("help for an unknown topic is a usage error", async () => {
    const r = await runMain(["help", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("mogui: unknown help topic 'nope'");
  });

  test("help exit-codes renders the every-command rows and every command's declared exits", async () => {
    const r = await runMain(["help", "exit-codes"]);
    expect(r.code).toBe(0);
    const sections: [string, readonly ExitCodeRow[]][] = [["Every command", EVERY_COMMAND]];
    for (const [name, e] of Object.entries(COMMANDS) as [string, CommandEntry][]) {
      const rows = exitRowsFor((await e.load()).default);
      if (rows) sections.push([`mogui ${name}`, rows]);
    }
    expect(sections.length).toBe(Object.keys(COMMANDS).length + 1);
    for (const [head, rows] of sections) {
      expect(r.stdout).toContain(`\n${head}\n${exitRows(rows).join("\n")}\n`);
      for (const row of rows) expect(r.stdout).toMatch(new RegExp(`\\n  ${String(row.code).replace(/[^\w]/g, "\\$&")} +${row.meaning.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n`));
    }
  });

  test("every registered command has an exit-code table and help that renders", async () => {
    for (const name of Object.keys(COMMANDS)) {
      expect(exitRowsFor((await COMMANDS[name as keyof typeof COMMANDS].load()).default)).toBeDefined();
      const r = await runMain(["help", ...name.split(" ")]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`mogui ${name}`);
    }
  });

  test("an internal error is exit 1 with one line; --debug adds the stack", async () => {
    const boom = async () => {
      throw new Error("kaboom");
    };
    const r = await runMain(["worker-reap", "--task-id", "t1", "--dry-run"], { runner: boom, env: { ORCA_CLI_COMMAND: "orca" } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("mogui: internal error: kaboom\n");
    const d = await runMain(["worker-reap", "--task-id", "t1", "--dry-run", "--debug"], { runner: boom, env: { ORCA_CLI_COMMAND: "orca" } });
    expect(d.code).toBe(1);
    expect(d.stderr).toStartWith("mogui: internal error: kaboom\nError: kaboom\n");
  });
});

describe("main(argv): colour of the diagnostics", () => {
  // A verdict line through the logger (redaction-scan outside a git repository) and one through fail() (main's exit line).
  const cases = [
    [["redaction-scan", "--dir", "/"], "redaction-scan: FAIL — not a git repository: /\n"],
    [["redaction-inventory", "--dir", "/"], "redaction-inventory: FAIL. REDACTION_EXTRA_PATTERNS is unset. A blind spot cannot be measured without rules.\n"],
  ] as const;

  test("--color=always or FORCE_COLOR=1 colours FAIL; not a TTY, NO_COLOR or --color=never gives the plain bytes", async () => {
    for (const [argv, plain] of cases) {
      const coloured = plain.replace("FAIL", "\x1b[31mFAIL\x1b[39m");
      expect(await runMain(["--color=always", ...argv], { env: {} })).toMatchObject({ code: 2, stderr: coloured });
      expect(await runMain([...argv], { env: { FORCE_COLOR: "1" } })).toMatchObject({ code: 2, stderr: coloured });
      expect(await runMain([...argv], { env: {} })).toMatchObject({ code: 2, stderr: plain });
      expect(await runMain([...argv], { env: { NO_COLOR: "1" } })).toMatchObject({ code: 2, stderr: plain });
      expect(await runMain(["--color=never", ...argv], { env: { FORCE_COLOR: "1" } })).toMatchObject({ code: 2, stderr: plain });
    }
  });
});
