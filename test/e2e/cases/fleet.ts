/** End-to-end cases for the fleet family: one row per command (keyed by the family's command names). */
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { makeRepo } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const CLAUDE = join(ROOT, "fixtures", "transcripts", "spend-claude.jsonl");
const env = () => () => {
  const dir = tempDir("mogui-fleet-case-");
  return e2eEnv({ MOGUI_HOME: dir, HOME: dir });
};
let repo: string | undefined;
const aRepo = () => (repo ??= makeRepo().repo);

export const cases: FamilyCases = {
  "fleet scan": {
    get argv() {
      return ["fleet", "scan", "--repo", aRepo(), "--host", "none"];
    },
    code: 0,
    stdout: /\tmain\tunsafe: Path is the main worktree of its repository\t/,
    env: env(),
  },
  "fleet reap": {
    get argv() {
      return ["fleet", "reap", "--repo", aRepo(), "--host", "none"];
    },
    code: 0,
    stdout: /^would reclaim: 0B \(0 bytes\)\n$/,
    env: env(),
  },
  // The groups: flags before the subcommand are the subcommand's.
  fleet: {
    get argv() {
      return ["fleet", "--json", "scan", "--repo", aRepo(), "--host", "none"];
    },
    code: 0,
    stdout: /^\{"panes":/,
    env: env(),
  },
  // One frame of the live view, as data: the main worktree is never a row.
  top: {
    get argv() {
      return ["top", "--repo", aRepo(), "--host", "none", "--once", "--json"];
    },
    code: 0,
    stdout: /^\{"rows":\[\],"totals":\{/,
    env: env(),
  },
  spend: { argv: ["spend", "--json", "report", "--by", "model"], code: 0, stdout: /^\{"by":"model",.*"groups":\[\],/, env: env() },
  "spend record": { argv: ["spend", "record", "--job", "j1", "--transcript", CLAUDE], code: 0, stdout: /\tresponses=3\ttokens=6372\tmalformed=1\n$/, env: env() },
  "spend report": { argv: ["spend", "report", "--by", "model"], code: 0, stdout: /^group +input +output +cache_read +cache_write +total +responses\nTOTAL +0 +0 +0 +0 +0 +0\n$/, env: env() },
  "spend watch": { argv: ["spend", "watch", "--job", "j1", "--transcript", CLAUDE, "--max-tokens", "6000"], code: 3, stdout: /^job=j1 tokens=6372 max_tokens=6000 OVER\n$/, env: env() },
};
