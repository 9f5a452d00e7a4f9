import { resolve } from "node:path";
import { bootstrap, BootstrapError, DEFAULT_BUDGET_CHARS } from "../../src/succession/bootstrap/bootstrap.ts";
import { psProbe } from "../../src/succession/bootstrap/dual.ts";
import { ARGS, UNBOUNDED_MAX } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";

const NAME = "master-bootstrap";

export default defineCommand({
  meta: {
    name: NAME,
    description: ["Boot measurement: read the charter (L0, required) and the handoff (L1) into one character budget, L0", "first; restore Role State from the handoff; warn about another live `claude` carrying this session id."].join("\n"),
  },
  usage: ["master-bootstrap --charter <file> [--handoff <file>] [--budget <chars>] [--session-id <id>] [--strict-lease] [--json]"],
  args: {
    charter: { type: "string", valueHint: "file", required: true, description: "The charter (MASTER-OPERATIONS.md); missing is exit 2" },
    handoff: { type: "string", valueHint: "file", description: "The latest handoff (L1 and Role State)" },
    // The original: `--budget INT`, negative -> "Budget must be non-negative"; no upper bound (issue 26 §3).
    budget: { type: "int", min: 0, max: UNBOUNDED_MAX, valueHint: "chars", description: "Character budget for L0 + L1", default: DEFAULT_BUDGET_CHARS },
    "session-id": { type: "string", valueHint: "id", description: "Session id to look for in other claude processes" },
    "strict-lease": { type: "boolean", description: "A DUAL_INSTANCE warning is an error (exit 2)" },
    json: { ...ARGS.json, description: "One compact JSON document (default: role=, budget_used=, warnings= lines)" },
  },
  notes: [
    "Warnings: HANDOFF_MISSING, ROLE_STATE_MISSING, BUDGET_TRUNCATED:L0|L1, DUAL_INSTANCE:<pid>,\n" +
      "PROCESS_PROBE_FAILED:<kind>. Roles: Architecture, Research, Reference Implementation, Feature\n" +
      "Implementation, Release / Operations, Incident Response, Maintenance; Role Lock ENABLED or DISABLED.",
  ],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "measured" },
    usage: { code: 2, meaning: "usage; charter missing; invalid Role State; DUAL_INSTANCE with --strict-lease" },
  },
  examples: ["mogui master-bootstrap --charter master-ops/docs/MASTER-OPERATIONS.md --handoff handoffs/latest.md --json"],
  async run({ ctx, args, fail }) {
    let result;
    try {
      result = await bootstrap(
        {
          charter: resolve(ctx.cwd, args.charter),
          handoff: args.handoff === undefined ? undefined : resolve(ctx.cwd, args.handoff),
          budget: args.budget,
          sessionId: args["session-id"],
          strictLease: args["strict-lease"],
          parentPid: process.ppid,
        },
        psProbe(ctx),
      );
    } catch (e) {
      if (e instanceof BootstrapError) return fail("usage", `${NAME}: ${e.message}`);
      throw e;
    }
    if (args.json) printDoc(ctx, result, true);
    else printLines(ctx, [`role=${result.role_state?.role ?? ""}`, `budget_used=${result.budget_used}`, `warnings=${result.warnings.join(",")}`]);
    return "ok";
  },
});
