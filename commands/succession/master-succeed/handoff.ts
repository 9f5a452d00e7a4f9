import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { buildHandoff } from "../../../src/succession/master/handoff.ts";
import { emit, readJsonFile } from "../../../src/succession/master/io.ts";

const NAME = "master-succeed handoff";

export default defineMoguiCommand({
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
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  notes: [
    "Spec keys: role_state {role|current_role} or current_role (default 'Reference Implementation'),\n" +
      "current_objective, active_tracks, open_tracks, accepted_artifacts, deferred_work, open_questions,\n" +
      "recommended_next_role, observed_baseline. Lists may be a string or an array; empty renders '- none'.",
  ],
  examples: ["mogui master-succeed handoff --spec ./ops/handoff-spec.json --json"],
  async run(ctx, args) {
    const spec = readJsonFile(ctx, args.spec as string, "master-succeed handoff");
    if (!spec || typeof spec !== "object" || Array.isArray(spec)) throw new ExitError(2, "master-succeed handoff: the spec must be a JSON object");
    emit(ctx, { handoff: buildHandoff(spec as Record<string, unknown>) }, Boolean(args.json));
    return 0;
  },
});
