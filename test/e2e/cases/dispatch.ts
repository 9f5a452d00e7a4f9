/** End-to-end cases for the dispatch family: one row per command (keyed by the family's command names). */
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const CONTRACT = join(ROOT, "master-ops", "README.md");

export const cases: FamilyCases = {
  dispatch: {
    argv: ["dispatch", "--contract", CONTRACT, "--check-only", "--runtime", "codex"],
    code: 0,
    stdout: /^exit=0 step=check-only runtime=codex model=gpt-5\.6-luna tier=efficient contract_sha=[0-9a-f]{64}\n$/,
    env: () => e2eEnv({ MOGUI_HOME: tempDir(), MOGUI_MASTER_HOST_RUNTIME: "claude" }),
  },
  "dispatch-collision-check": { argv: ["dispatch-collision-check", CONTRACT], code: 0, stdout: /^$/, env: () => e2eEnv({ MOGUI_HOME: tempDir() }) },
  "codex-worker-pretrust": {
    argv: ["codex-worker-pretrust", "/tmp/mogui-e2e-worktree", "--accounts-dir", "/nonexistent/mogui-codex-accounts"],
    code: 0,
    stdout: /^INFO accounts directory not found: \/nonexistent\/mogui-codex-accounts; nothing to pre-trust\nSummary: 0 added, 0 updated, 0 already trusted\n$/,
  },
  "cursor-worker-pretrust": {
    argv: ["cursor-worker-pretrust", ROOT],
    code: 0,
    stdout: /\/\.workspace-trusted: trusted \(added\)\nSummary: 1 added, 0 updated, 0 already trusted\n$/,
    env: () => e2eEnv({ CURSOR_PROJECTS_DIR: tempDir() }),
  },
};
