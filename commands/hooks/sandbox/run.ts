import { defineCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { isTerminal } from "../../../src/lib/tty.ts";
import { forward } from "../../../src/lib/exits.ts";
import { DenyPathError, detectMechanism, findExecutable, missingLine, resolveDenyPaths } from "../../../src/hooks/sandbox/mechanism.ts";
import { runSandboxed, runUnprotected } from "../../../src/hooks/sandbox/run.ts";
import { diagLine } from "../../../src/lib/line.ts";

const RUN_ARGS = {
  "deny-write": { type: "string", multiple: true, valueHint: "path", description: "A path (and everything under it) the command cannot write; repeatable, at least one" },
  "allow-unenforced": { type: "boolean", description: "Where no mechanism exists or it cannot create a sandbox, run the command unprotected anyway (said on stderr)" },
} as const;

/**
 * mogui's own flags lead (`--deny-write p`, `--allow-unenforced`, `--help`, up to an optional `--`); the first other
 * word starts the command, whose own flags are never read (`mogui sandbox run --deny-write P ls -la`). Parsed here,
 * strictly, without the general parser: this sits in front of every command a sandboxed session starts.
 */
function split(argv: readonly string[]): { deny: string[]; allowUnenforced: boolean; help: boolean; command: string[] } {
  const deny: string[] = [];
  let allowUnenforced = false;
  let help = false;
  let i = 0;
  const value = (v: string | undefined) => {
    if (v === undefined || v === "" || v === "--" || v.startsWith("--deny-write") || v.startsWith("--allow-unenforced")) throw new UsageError("--deny-write needs a path", "sandbox run");
    deny.push(v);
  };
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return { deny, allowUnenforced, help, command: argv.slice(i + 1) };
    if (a === "--help" || a === "-h") help = true;
    else if (a === "--deny-write") value(argv[++i]);
    else if (a.startsWith("--deny-write=")) value(a.slice("--deny-write=".length));
    else if (a === "--allow-unenforced" || a === "--allow-unenforced=true") {
      if (allowUnenforced) throw new UsageError("--allow-unenforced given twice", "sandbox run");
      allowUnenforced = true;
    } else if (a === "--allow-unenforced=false") allowUnenforced = false;
    else if (a.startsWith("--")) throw new UsageError(`unknown flag ${a.split("=")[0]} for 'mogui sandbox run'`, "sandbox run");
    else break;
  }
  return { deny, allowUnenforced, help, command: argv.slice(i) };
}

const command = defineCommand({
  meta: {
    name: "sandbox run",
    description: [
      "Run a command with every --deny-write path (and everything under it) read-only at the kernel level:",
      "Linux bubblewrap (the whole file system as it is, each path bound read-only over itself, its ancestors",
      "pinned so they cannot be renamed away), macOS sandbox-exec with a generated profile. stdin, stdout,",
      "stderr, the environment, the working directory and the exit status pass through; SIGTERM and SIGHUP",
      "(and SIGINT when stdin is not a terminal) are forwarded; a command killed by signal n exits 128+n.",
      "Where no mechanism works the command does not run (exit 2), unless --allow-unenforced.",
    ].join("\n"),
  },
  usage: ["sandbox run --deny-write <path>... [--allow-unenforced] [--] <command> [args...]"],
  args: RUN_ARGS,
  passthrough: true,
  exits: {
    unavailable: { code: 2, meaning: "no sandbox mechanism, or it cannot create a sandbox here: the command did not run" },
    usage: { code: 2, meaning: "usage error: no --deny-write, a path that does not exist, no command" },
    notFound: { code: 127, meaning: "the command was not found (it did not run)" },
    forwarded: { code: "N", meaning: "the command's own exit status; 128+n when a signal n killed it" },
  },
  notes: [
    "--deny-write <path>: a path (and everything under it) the command cannot write; repeatable, at least one. --allow-unenforced: where no mechanism works, run the command unprotected anyway (said on stderr). mogui's flags come first; the first other word (or the word after --) starts the command.",
    "A whole master session runs protected this way: mogui sandbox run --deny-write <product> -- claude (or codex, or a herdr/Orca launch command).",
    "Paths are resolved with realpath; one that does not exist is a usage error.",
    "'mogui sandbox check' proves the mechanism with a probe write.",
  ],
  examples: ["mogui sandbox run --deny-write ~/code/product -- claude", "mogui sandbox run --deny-write ../product -- bash -c 'make test'"],
  async run({ ctx, args, fail }) {
    const { deny, allowUnenforced, help, command: argv } = split(args._);
    if (help) {
      const { renderCommandHelp } = await import("../../../src/lib/help.ts");
      ctx.io.stdout(renderCommandHelp("sandbox run", command));
      return "ok";
    }
    if (deny.length === 0) throw new UsageError("name at least one --deny-write <path>", "sandbox run");
    if (argv.length === 0) throw new UsageError("name a command to run", "sandbox run");
    let denied: string[];
    try {
      denied = resolveDenyPaths(deny, ctx.cwd);
    } catch (e) {
      if (e instanceof DenyPathError) throw new UsageError(e.message, "sandbox run");
      throw e;
    }
    const stdinIsTTY = isTerminal(0);
    const m = detectMechanism(process.platform, ctx.env.PATH, ctx.cwd);
    if (!m) {
      if (!allowUnenforced) return fail("unavailable", `sandbox run: ${missingLine(process.platform)}; the command was not run (--allow-unenforced runs it unprotected)`);
      if (!findExecutable(argv[0]!, ctx.env.PATH, ctx.cwd)) return fail("notFound", `sandbox run: ${argv[0]}: command not found`);
      await diagLine(ctx, "sandbox run", `WARNING: ${missingLine(process.platform)}; running UNPROTECTED (--allow-unenforced): ${denied.join(", ")} can be written`);
      return forward(await runUnprotected(argv, ctx.cwd, ctx.env, stdinIsTTY));
    }
    if (!findExecutable(argv[0]!, ctx.env.PATH, ctx.cwd)) return fail("notFound", `sandbox run: ${argv[0]}: command not found`);
    const r = await runSandboxed(m, denied, argv, ctx.cwd, ctx.env, stdinIsTTY);
    if (!r.ran && allowUnenforced) {
      await diagLine(ctx, "sandbox run", `WARNING: ${m.name} could not create the sandbox; running UNPROTECTED (--allow-unenforced): ${denied.join(", ")} can be written`);
      return forward(await runUnprotected(argv, ctx.cwd, ctx.env, stdinIsTTY));
    }
    if (!r.ran) {
      return fail("unavailable", `sandbox run: ${m.name} is installed but could not create the sandbox (its message is above; are user namespaces disabled?); the command was not run. Run 'mogui sandbox check'`);
    }
    return forward(r.status);
  },
});

export default command;
