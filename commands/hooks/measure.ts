import { ARGS, parseArgv } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { forward } from "../../src/lib/exits.ts";
import { measure } from "../../src/hooks/measure/measure.ts";

const DEFAULT_TIMEOUT_MS = 600_000;

const MEASURE_ARGS = {
  "timeout-ms": { ...ARGS.timeoutMs, max: 86_400_000, valueHint: "n", default: DEFAULT_TIMEOUT_MS, description: "Kill the command after n ms" },
} as const;

/**
 * mogui's own flags lead (`--timeout-ms n`, `--help`, up to an optional `--`); the first other word starts the
 * measured command, whose own flags are never read (`mogui measure ls -la`).
 */
function split(argv: readonly string[]): { own: string[]; help: boolean; command: string[] } {
  const own: string[] = [];
  let help = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return { own, help, command: argv.slice(i + 1) };
    if (a === "--help" || a === "-h") help = true;
    else if (a.startsWith("--timeout-ms=")) own.push(a);
    else if (a === "--timeout-ms") {
      own.push(a, ...argv.slice(i + 1, i + 2));
      i++;
    } else break;
  }
  return { own, help, command: argv.slice(i) };
}

const command = defineCommand({
  meta: {
    name: "measure",
    description: [
      "Run a command and print `exit=<status>` first, then its stdout and stderr (or `(no output)`), then exit",
      "with the command's own status: evidence an agent can quote as is. A missing command is exit=127 with",
      "'command not found'; a timeout is exit=124.",
    ].join("\n"),
  },
  usage: ["measure [--timeout-ms <n>] [--] <command> [args...]"],
  args: MEASURE_ARGS,
  // The command's own flags must reach it untouched (`mogui measure ls -la`), so mogui parses only its leading flags.
  passthrough: true,
  exits: {
    usage: { code: 2, meaning: "usage error: no command named, bad --timeout-ms (also a command that itself exits 2)" },
    measured: { code: "N", meaning: "the measured command's own exit status, printed first as exit=N; 124 when it timed out, 127 when it was not found" },
  },
  notes: ["The command runs directly (argv), never through a shell; quote a pipeline as `measure sh -c '...'`."],
  examples: ["mogui measure git status --short", "mogui measure --timeout-ms 5000 -- make test"],
  async run({ ctx, args }) {
    const { own, help, command: argv } = split(args._);
    if (help) {
      const { renderCommandHelp } = await import("../../src/lib/help.ts");
      ctx.io.stdout(renderCommandHelp("measure", command));
      return "ok";
    }
    const t = parseArgv("measure", own, MEASURE_ARGS, {}, { typed: true })["timeout-ms"];
    const timeoutMs = typeof t === "number" ? t : DEFAULT_TIMEOUT_MS;
    if (argv.length === 0) throw new UsageError("name a command to measure", "measure");
    const m = await measure(ctx, argv, timeoutMs);
    ctx.io.stdout(m.text);
    return forward(m.status);
  },
});

export default command;
