import { resolve } from "node:path";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import type { Ctx } from "../../src/lib/context.ts";
import { isFile } from "../../src/lib/fs.ts";
import { printJson, printLines } from "../../src/lib/output.ts";
import { audit, AuditFail, renderJson, renderText } from "../../src/publishing/probes/drift.ts";
import { expandHome, lookupProjectTranscript } from "../../src/publishing/probes/resolve.ts";

function fail(ctx: Ctx, msg: string): number {
  ctx.io.stderr(`model-drift-audit: FAIL. ${msg}\n`);
  return 2;
}

export default defineMoguiCommand({
  meta: {
    name: "model-drift-audit",
    description: [
      "Audit a whole session transcript: the model of every assistant turn, its distribution and every",
      "transition between models. Exit 1 means drift (a transition, or a model other than --expect);",
      "exit 2 means the transcript cannot decide (missing, unreadable, no assistant turns, unknown format).",
    ].join("\n"),
  },
  usage: [
    "model-drift-audit [--transcript <path> | --session <id> | --workspace-dir <name>] [--projects-dir <dir>]",
    "                  [--expect <model>] [--ignore-synthetic] [--json]",
  ],
  args: {
    transcript: { type: "string", valueHint: "path", description: "The transcript to audit" },
    session: { type: "string", valueHint: "id", description: "Find <projects-dir>/*/<id>.jsonl" },
    expect: { type: "string", valueHint: "model", description: "Every real model must be this one (default $MODEL_DRIFT_EXPECT)" },
    "projects-dir": { type: "string", valueHint: "dir", description: "Where session transcripts live (default $MODEL_DRIFT_PROJECTS_DIR)" },
    "workspace-dir": { type: "string", valueHint: "name", description: "Newest <projects-dir>/<name>/*.jsonl (default $MODEL_DRIFT_WORKSPACE_DIR)" },
    "ignore-synthetic": { type: "boolean", description: "Drop <synthetic> turns before counting transitions (A -> synthetic -> B is A -> B)" },
    json: { type: "boolean", description: "Print the report as JSON (indented)" },
  },
  notes: [
    "Transcripts: Claude Code JSONL and Codex session JSONL, streamed in constant memory. Malformed lines are\n" +
      "skipped and counted (stderr warning, `malformed_lines` in --json); a torn last line is ignored. Turn times\n" +
      "are shown in local time.",
  ],
  examples: [
    "mogui model-drift-audit --transcript ~/.claude/projects/ws/abc.jsonl --expect claude-opus-4-1",
    "mogui model-drift-audit --session abc --projects-dir ~/.claude/projects --ignore-synthetic --json",
  ],
  async run(ctx, args) {
    const env = (k: string) => ctx.env[k]?.trim() || undefined;
    const session = args.session as string | undefined;
    const workspace = (args["workspace-dir"] as string | undefined) ?? env("MODEL_DRIFT_WORKSPACE_DIR");
    const projects = (args["projects-dir"] as string | undefined) ?? env("MODEL_DRIFT_PROJECTS_DIR");
    const expect = (args.expect as string | undefined) ?? env("MODEL_DRIFT_EXPECT") ?? null;
    const explicit = args.transcript as string | undefined;
    const path = explicit !== undefined ? resolve(ctx.cwd, expandHome(ctx, explicit)) : lookupProjectTranscript(ctx, projects, session, workspace);
    if (explicit !== undefined && !isFile(path!)) return fail(ctx, `transcript not found: ${path}`);
    if (!path || !isFile(path)) return fail(ctx, `no transcript found (session=${session ?? "unset"}, workspace=${workspace ?? "unset"})`);
    let report;
    try {
      report = audit(path, expect, Boolean(args["ignore-synthetic"]));
    } catch (e) {
      if (e instanceof AuditFail) return fail(ctx, e.message);
      return fail(ctx, `cannot read transcript: ${(e as Error).message}`);
    }
    if (report.malformed) ctx.io.stderr(`model-drift-audit: warning: skipped ${report.malformed} malformed line(s)\n`);
    if (args.json) printJson(ctx, renderJson(report), false);
    else printLines(ctx, renderText(report));
    return report.drift || report.expectMismatch ? 1 : 0;
  },
});
