import { defineCommand } from "../../src/lib/command.ts";
import { printPretrust } from "../../src/dispatch/pretrust/common.ts";
import { cursorPretrust } from "../../src/dispatch/pretrust/cursor.ts";

export default defineCommand({
  meta: {
    name: "cursor-worker-pretrust",
    description: [
      "Pre-trust a worktree for Cursor: write the trust marker <projects>/<key>/.workspace-trusted so a",
      "dispatched cursor-agent starts without a trust prompt. An existing marker is parsed first and only",
      "completed, never overwritten for another workspace. A symlink anywhere on the marker path (any ancestor of",
      "the projects directory included) is refused: exit 2, nothing written.",
    ].join("\n"),
  },
  usage: ["cursor-worker-pretrust <worktree-path> [--projects-dir <dir>]"],
  args: {
    worktree: { type: "positional", required: true, valueHint: "worktree-path", description: "Absolute path of an existing worktree directory" },
    "projects-dir": {
      type: "string",
      valueHint: "dir",
      description: "Cursor's projects directory (default $CURSOR_PROJECTS_DIR, else ~/.cursor/projects)",
    },
  },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the trust marker was added, updated or already present" },
    refused: { code: 2, meaning: "usage error, relative or missing worktree, a symlink anywhere on the marker path (any ancestor of the projects dir included), an unreadable/invalid marker, or a marker for another workspace" },
  },
  notes: [
    "The project key is the path without its leading `/`, with every `/` turned into `-` and every `.` removed\n" +
      "(`/tmp/.orca/worktrees/repo/feature.with.dot` -> `tmp-orca-worktrees-repo-featurewithdot`). A new marker is\n" +
      '`{"trustedAt": "<UTC ISO ms>Z", "workspacePath": "<path>"}`, written atomically with mode 0644. stdout ends with\n' +
      "`Summary: <a> added, <u> updated, <t> already trusted`.",
  ],
  examples: ["mogui cursor-worker-pretrust /work/repo-wt/fix-login", "mogui cursor-worker-pretrust /work/repo-wt/x --projects-dir /tmp/cursor-projects"],
  async run({ ctx, args, fail }) {
    return printPretrust(
      ctx,
      () => cursorPretrust(ctx, { worktree: args.worktree, projectsDir: args["projects-dir"] }),
      (msg) => fail("refused", msg),
    );
  },
});
