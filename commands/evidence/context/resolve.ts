/** `mogui context resolve PATH --manifest FILE`: what kind of place a path is in a declared workspace (reference §16). */
import { resolve } from "node:path";
import { loadManifest, ManifestError } from "../../../src/evidence/context/manifest.ts";
import { descriptorDict, resolveContext } from "../../../src/evidence/context/resolve.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "context resolve",
    description: [
      "Resolve a path against a workspace manifest: its kind (folder, git-repo, git-worktree, nested-repo,",
      "multi-repo-workspace), the repository it belongs to, and every declared or observed repository with its status",
      "(declared+observed, declared-missing, observed-undeclared). Never scans recursively.",
    ].join("\n"),
  },
  usage: ["context resolve <path> --manifest <file> [--json]"],
  args: {
    path: { type: "positional", required: true, description: "The path to resolve (relative to the current directory)" },
    manifest: { type: "string", valueHint: "file", required: true, description: "The workspace manifest JSON {workspace_root, workspace_identity, repositories}" },
    json: { ...ARGS.json, description: "Print the descriptor as one compact JSON document" },
  },
  notes: ["Only the declared paths, the root's immediate children and the path's ancestors inside the root are looked at.\n" + "A .git directory marks a repo; a .git file starting with `gitdir:` marks a worktree (nothing else of it is read)."],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the path was resolved (missing declared repositories are warnings, not errors)" },
    usage: { code: 2, meaning: "usage error, or the manifest is missing, unreadable or malformed" },
  },
  examples: ["mogui context resolve . --manifest workspace.json", "mogui context resolve product/src --manifest workspace.json --json"],
  async run({ ctx, args, fail }) {
    let d;
    try {
      const m = loadManifest(resolve(ctx.cwd, args.manifest));
      d = resolveContext(resolve(ctx.cwd, args.path), m, ctx.env.HOME || undefined);
    } catch (e) {
      if (e instanceof ManifestError) return fail("usage", `context resolve: ${e.message}`);
      throw e;
    }
    if (args.json) {
      printDoc(ctx, descriptorDict(d), true);
      return "ok";
    }
    printLines(ctx, [
      `kind: ${d.kind}`,
      `path: ${d.resolvedPath}`,
      `workspace: ${d.workspaceIdentity}`,
      `repository: ${d.repositoryIdentity ?? "-"}`,
      `git_repo: ${d.capabilities.gitRepo}`,
      ...d.repoSet.map((r) => `repo: ${r.status}\t${r.identity}\t${r.path}`),
    ]);
    const log = logger(ctx, "context resolve");
    for (const w of d.warnings) log.warn(w);
    return "ok";
  },
});
