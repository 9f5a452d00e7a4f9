/** `mogui workspace-descriptor-check`: is ACTION prohibited for the repository at PATH? (reference §18, fail closed) */
import { isProhibited, loadDescriptor, WorkspaceDescriptorError } from "../../src/evidence/descriptor/descriptor.ts";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import type { Ctx } from "../../src/lib/context.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";

function undecidable(ctx: Ctx, json: boolean, path: string, action: string, message: string): "undecidable" {
  if (json) printDoc(ctx, { allow: false, decidable: false, path, action, reason: "unconfigured_or_invalid", message }, true);
  else logger(ctx, "workspace-descriptor-check").log(message);
  return "undecidable";
}

export default defineCommand({
  meta: {
    name: "workspace-descriptor-check",
    description: [
      "Decide whether an action is prohibited for the repository a path belongs to, from the workspace",
      "descriptor. A path that matches no declared repository is prohibited (fail closed) unless",
      "--allow-unknown-repo. No descriptor, or an invalid one, is undecidable (exit 2), never allowed.",
    ].join("\n"),
  },
  usage: ["workspace-descriptor-check --path <path> --action <action> [--config <path>] [--allow-unknown-repo] [--json]"],
  args: {
    path: { type: "string", valueHint: "path", required: true, description: "A declared repository path, its name, or an absolute path under workspace_root" },
    action: { type: "string", valueHint: "action", required: true, description: "The action to check (exact string, e.g. force-push, direct-main-commit)" },
    config: {
      type: "string",
      valueHint: "path",
      description: "The descriptor (default $WORKSPACE_DESCRIPTOR, $MOGUI_WORKSPACE_DESCRIPTOR, else $MOGUI_HOME/config/workspace-descriptor.json)",
    },
    "allow-unknown-repo": { type: "boolean", description: "Allow the action when the path matches no declared repository" },
    json: { ...ARGS.json, description: "Print the decision as one compact JSON document" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "allowed: the action is not prohibited for the matched repository" },
    prohibited: { code: 1, meaning: "prohibited, or the path matches no declared repository (unless --allow-unknown-repo)" },
    undecidable: { code: 2, meaning: "undecidable: no descriptor, an invalid descriptor, or a usage error" },
  },
  notes: ["Matching is exact: an absolute path must resolve to a declared path under workspace_root (the root itself is '.');\n" + "a relative path must equal a declared path, or (one segment, no '/') a declared name. No basename or suffix match."],
  examples: ["mogui workspace-descriptor-check --path example-product --action force-push", "mogui workspace-descriptor-check --path /work/ws/example-ops --action direct-main-commit --json"],
  async run({ ctx, args }) {
    const { path, action, json } = args;
    let decision;
    let d;
    try {
      d = loadDescriptor(ctx, args.config);
      if (d.sourcePath === null) return undecidable(ctx, json, path, action, `workspace descriptor is unconfigured: no file at ${d.configPath}; set --config, WORKSPACE_DESCRIPTOR or MOGUI_WORKSPACE_DESCRIPTOR, or create it`);
      decision = isProhibited(d, path, action, !args["allow-unknown-repo"]);
    } catch (e) {
      if (e instanceof WorkspaceDescriptorError) return undecidable(ctx, json, path, action, e.message);
      throw e;
    }
    const repo = decision.repository;
    if (json) {
      printDoc(
        ctx,
        {
          allow: !decision.prohibited,
          decidable: true,
          path,
          action,
          prohibited: decision.prohibited,
          repository: repo ? { name: repo.name, path: repo.path, role: repo.role, prohibited: repo.prohibited } : null,
          source_path: d.sourcePath,
        },
        true,
      );
    } else {
      printLines(ctx, [`${decision.prohibited ? "PROHIBITED" : "ALLOWED"}: action=${action} repo=${repo ? repo.name : "(unmatched)"} path=${path}`]);
    }
    return decision.prohibited ? "prohibited" : "ok";
  },
});
