import { defineCommand } from "../../src/lib/command.ts";
import { codexPretrust } from "../../src/dispatch/pretrust/codex.ts";
import { printPretrust } from "../../src/dispatch/pretrust/common.ts";

export default defineCommand({
  meta: {
    name: "codex-worker-pretrust",
    description: [
      'Pre-trust a worktree for Codex: set trust_level = "trusted" for it in every Codex account\'s config.toml',
      "under Orca's codex-accounts directory, so a dispatched Codex worker starts without a trust prompt. Edits are",
      "byte-preserving and verified by re-parsing the TOML; nothing is written unless every config can be edited.",
    ].join("\n"),
  },
  usage: ["codex-worker-pretrust <worktree-path> [--accounts-dir <dir>]"],
  args: {
    worktree: { type: "positional", required: true, valueHint: "worktree-path", description: "Absolute path of the worktree (it need not exist yet)" },
    "accounts-dir": {
      type: "string",
      valueHint: "dir",
      description: "Orca's Codex accounts directory (default $CODEX_ACCOUNTS_DIR, else ~/Library/Application Support/orca/codex-accounts on macOS, ~/.local/share/orca/codex-accounts elsewhere)",
    },
  },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "every config trusted (added, updated or already), or no accounts directory (nothing to do)" },
    refused: {
      code: 2,
      meaning: "usage error, relative path or line break in the path, a config that does not parse, is not a table where one is needed, is a symlink or is reached through a symlinked account/home directory, or has no single verified edit; nothing was written",
    },
  },
  notes: [
    'Targets: every <accounts>/*/home/config.toml. A missing project gets `[projects."<path>"]` appended; a project\n' +
      "without trust_level gets the line inserted after its header; another trust_level has its line rewritten. Each\n" +
      'candidate edit must re-parse to exactly the original document plus trust_level = "trusted", and exactly one\n' +
      "candidate must pass. A symlinked config.toml is refused. stdout: one `<config>: trusted (added|updated)` or\n" +
      "`<config>: already trusted` line per config, then `Summary: <a> added, <u> updated, <t> already trusted`.",
  ],
  examples: ["mogui codex-worker-pretrust /work/repo-wt/fix-login", "mogui codex-worker-pretrust /work/repo-wt/x --accounts-dir /tmp/codex-accounts"],
  async run({ ctx, args, fail }) {
    return printPretrust(
      ctx,
      () => codexPretrust(ctx, { worktree: args.worktree, accountsDir: args["accounts-dir"] }),
      (msg) => fail("refused", msg),
    );
  },
});
