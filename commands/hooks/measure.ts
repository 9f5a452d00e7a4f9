import { defineMoguiCommand, type MoguiCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { measure } from "../../src/hooks/ops/measure.ts";

const DEFAULT_TIMEOUT_MS = 600_000;

const command: MoguiCommand = defineMoguiCommand({
  meta: {
    name: "measure",
    description: [
      "Run a command and print `exit=<status>` first, then its stdout and stderr (or `(no output)`), then exit",
      "with the command's own status: evidence an agent can quote as is. A missing command is exit=127 with",
      "'command not found'; a timeout is exit=124.",
    ].join("\n"),
  },
  usage: ["measure [--timeout-ms <n>] [--] <command> [args...]"],
  args: {
    "timeout-ms": { type: "string", valueHint: "n", description: `Kill the command after n ms (default ${DEFAULT_TIMEOUT_MS})` },
  },
  // The command's own flags must reach it untouched (`mogui measure ls -la`), so mogui parses only its leading flags.
  passthrough: true,
  notes: ["The command runs directly (argv), never through a shell; quote a pipeline as `measure sh -c '...'`."],
  examples: ["mogui measure git status --short", "mogui measure --timeout-ms 5000 -- make test"],
  async run(ctx, args) {
    const argv = [...args._];
    let timeoutMs = DEFAULT_TIMEOUT_MS;
    for (;;) {
      const a = argv[0];
      if (a === "--help" || a === "-h") {
        const { renderCommandHelp } = await import("../../src/lib/help.ts");
        ctx.io.stdout(renderCommandHelp("measure", command));
        return 0;
      }
      if (a === "--") {
        argv.shift();
        break;
      }
      if (a === "--timeout-ms" || a?.startsWith("--timeout-ms=")) {
        const raw = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[1];
        argv.splice(0, a.includes("=") ? 1 : 2);
        if (!raw || !/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--timeout-ms takes a whole number of milliseconds (got '${raw ?? ""}')`, "measure");
        timeoutMs = Number(raw);
        continue;
      }
      break;
    }
    if (argv.length === 0) throw new UsageError("name a command to measure", "measure");
    const m = await measure(ctx, argv, timeoutMs);
    ctx.io.stdout(m.text);
    return m.status;
  },
});

export default command;
