import { resolve } from "node:path";
import { bootstrap, BootstrapError, DEFAULT_BUDGET_CHARS } from "../../src/succession/bootstrap/bootstrap.ts";
import { psProbe } from "../../src/succession/bootstrap/dual.ts";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { ExitError } from "../../src/lib/errors.ts";
import { printLines } from "../../src/lib/output.ts";
import { emit, parseIntFlag } from "../../src/succession/master/io.ts";

const NAME = "master-bootstrap";

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: [
      "Boot measurement: read the charter (L0, required) and the handoff (L1) into one character budget, L0",
      "first; restore Role State from the handoff; warn about another live `claude` carrying this session id.",
    ].join("\n"),
  },
  usage: ["master-bootstrap --charter <file> [--handoff <file>] [--budget <chars>] [--session-id <id>] [--strict-lease] [--json]"],
  args: {
    charter: { type: "string", valueHint: "file", required: true, description: "The charter (MASTER-OPERATIONS.md); missing is exit 2" },
    handoff: { type: "string", valueHint: "file", description: "The latest handoff (L1 and Role State)" },
    budget: { type: "string", valueHint: "chars", description: "Character budget for L0 + L1", default: String(DEFAULT_BUDGET_CHARS) },
    "session-id": { type: "string", valueHint: "id", description: "Session id to look for in other claude processes" },
    "strict-lease": { type: "boolean", description: "A DUAL_INSTANCE warning is an error (exit 2)" },
    json: { type: "boolean", description: "One compact JSON document (default: role=, budget_used=, warnings= lines)" },
  },
  notes: [
    "Warnings: HANDOFF_MISSING, ROLE_STATE_MISSING, BUDGET_TRUNCATED:L0|L1, DUAL_INSTANCE:<pid>,\n" +
      "PROCESS_PROBE_FAILED:<kind>. Roles: Architecture, Research, Reference Implementation, Feature\n" +
      "Implementation, Release / Operations, Incident Response, Maintenance; Role Lock ENABLED or DISABLED.",
  ],
  examples: ["mogui master-bootstrap --charter master-ops/docs/MASTER-OPERATIONS.md --handoff handoffs/latest.md --json"],
  async run(ctx, args) {
    const budget = parseIntFlag((args.budget as string | undefined) ?? String(DEFAULT_BUDGET_CHARS), "budget", NAME);
    let result;
    try {
      result = await bootstrap(
        {
          charter: resolve(ctx.cwd, args.charter as string),
          handoff: args.handoff === undefined ? undefined : resolve(ctx.cwd, args.handoff as string),
          budget,
          sessionId: args["session-id"] as string | undefined,
          strictLease: Boolean(args["strict-lease"]),
          parentPid: process.ppid,
        },
        psProbe(ctx),
      );
    } catch (e) {
      if (e instanceof BootstrapError) throw new ExitError(2, `master-bootstrap: ${e.message}`);
      throw e;
    }
    if (args.json) emit(ctx, result, true);
    else printLines(ctx, [`role=${result.role_state?.role ?? ""}`, `budget_used=${result.budget_used}`, `warnings=${result.warnings.join(",")}`]);
    return 0;
  },
});
