import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { successionRun } from "../_shared.ts";
import { buildHandoff } from "../../../src/succession/master/handoff.ts";
import { readJsonFile } from "../../../src/succession/master/io.ts";

const NAME = "master-succeed handoff";

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Render the thin succession handoff from a JSON spec: the frozen Role State block (lock ENABLED, every",
      "other role frozen), objective, tracks, artifacts, deferred work, questions, next role and baseline.",
      "The markdown parses back through master-bootstrap's Role State parser.",
    ].join("\n"),
  },
  usage: ["master-succeed handoff --spec <file> [--json]"],
  args: {
    spec: { type: "string", valueHint: "file", required: true, description: "JSON spec (role_state or current_role, current_objective, active_tracks, ...)" },
    json: ARGS.json,
  },
  notes: [
    "Spec keys: role_state {role|current_role} or current_role (default 'Reference Implementation'),\n" +
      "current_objective, active_tracks, open_tracks, accepted_artifacts, deferred_work, open_questions,\n" +
      "recommended_next_role, observed_baseline. Lists may be a string or an array; empty renders '- none'.",
  ],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "handoff rendered" },
    usage: { code: 2, meaning: "usage; spec unreadable, not a JSON object, missing or unknown role" },
  },
  examples: ["mogui master-succeed handoff --spec ./ops/handoff-spec.json --json"],
  run: successionRun(async ({ ctx, args, fail }) => {
    const spec = readJsonFile(ctx, args.spec, "master-succeed handoff");
    if (!spec || typeof spec !== "object" || Array.isArray(spec)) return fail("usage", "master-succeed handoff: the spec must be a JSON object");
    printDoc(ctx, { handoff: buildHandoff(spec as Record<string, unknown>) }, args.json);
    return "ok";
  }),
});
