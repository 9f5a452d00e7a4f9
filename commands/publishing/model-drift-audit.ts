import { resolve } from "node:path";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { isFile } from "../../src/lib/fs.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { audit, AuditFail, renderJson, renderText } from "../../src/publishing/probes/drift.ts";
import { lookupProjectTranscript } from "../../src/publishing/probes/resolve.ts";
import { expandHome } from "../../src/lib/paths.ts";
import { errorMessage } from "../../src/lib/errors.ts";

const NAME = "model-drift-audit";

export default defineCommand({
  meta: {
    name: "model-drift-audit",
    description: [
      "Audit a whole session transcript: the model of every assistant turn, its distribution and every",
      "transition between models. Exit 1 means drift (a transition, or a model other than --expect);",
      "exit 2 means the transcript cannot decide (missing, unreadable, no assistant turns, unknown format).",
    ].join("\n"),
  },
  usage: ["model-drift-audit [--transcript <path> | --session <id> | --workspace-dir <name>] [--projects-dir <dir>]", "                  [--expect <model>] [--ignore-synthetic] [--json]"],
  args: {
    transcript: { type: "string", valueHint: "path", description: "The transcript to audit" },
    session: { type: "string", valueHint: "id", description: "Find <projects-dir>/*/<id>.jsonl" },
    expect: { type: "string", valueHint: "model", description: "Every real model must be this one (default $MODEL_DRIFT_EXPECT)" },
    "projects-dir": { type: "string", valueHint: "dir", description: "Where session transcripts live (default $MODEL_DRIFT_PROJECTS_DIR)" },
    "workspace-dir": { type: "string", valueHint: "name", description: "Newest <projects-dir>/<name>/*.jsonl (default $MODEL_DRIFT_WORKSPACE_DIR)" },
    "ignore-synthetic": { type: "boolean", description: "Drop <synthetic> turns before counting transitions (A -> synthetic -> B is A -> B)" },
    json: { ...ARGS.json, description: "Print the report as one compact JSON document (keys sorted)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "no transition and no mismatch with --expect" },
    drift: { code: 1, meaning: "a model transition, or a real model other than --expect" },
    undecidable: { code: 2, meaning: "undecidable: no transcript, unreadable, unsupported format, zero assistant turns, no real model; usage error" },
  },
  notes: [
    "Transcripts: Claude Code JSONL and Codex session JSONL, streamed in constant memory. Malformed lines are\n" + "skipped and counted (stderr warning, `malformed_lines` in --json); a torn last line is ignored. Turn times\n" + "are shown in local time.",
  ],
  examples: ["mogui model-drift-audit --transcript ~/.claude/projects/ws/abc.jsonl --expect claude-opus-4-1", "mogui model-drift-audit --session abc --projects-dir ~/.claude/projects --ignore-synthetic --json"],
  async run({ ctx, args, fail }) {
    const undecidable = (msg: string) => fail("undecidable", `${NAME}: FAIL. ${msg}`);
    const env = (k: string) => ctx.env[k]?.trim() || undefined;
    const session = args.session;
    const workspace = args["workspace-dir"] ?? env("MODEL_DRIFT_WORKSPACE_DIR");
    const projects = args["projects-dir"] ?? env("MODEL_DRIFT_PROJECTS_DIR");
    const expect = args.expect ?? env("MODEL_DRIFT_EXPECT") ?? null;
    const explicit = args.transcript;
    const path = explicit !== undefined ? resolve(ctx.cwd, expandHome(ctx, explicit)) : lookupProjectTranscript(ctx, projects, session, workspace);
    // The reference's wording, byte for byte up to the closing parenthesis; the path that was tried follows it.
    const notFound = `no transcript found (session=${session ?? "unset"}, workspace=${workspace ?? "unset"})`;
    if (!path || !isFile(path)) return undecidable(path ? `${notFound}: ${path}` : notFound);
    let report;
    try {
      report = audit(path, expect, args["ignore-synthetic"]);
    } catch (e) {
      if (e instanceof AuditFail) return undecidable(e.message);
      return undecidable(`cannot read transcript: ${errorMessage(e)}`);
    }
    if (report.malformed) logger(ctx, NAME).warn(`skipped ${report.malformed} malformed line(s)`);
    if (args.json) printDoc(ctx, renderJson(report), true);
    else printLines(ctx, renderText(report));
    return report.drift || report.expectMismatch ? "drift" : "ok";
  },
});
