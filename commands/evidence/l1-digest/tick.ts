/** `mogui l1-digest tick --config FILE`: one read-only observation tick (reference §12). */
import { resolve } from "node:path";
import { DigestError, loadDigestConfig } from "../../../src/evidence/digest/config.ts";
import { tick } from "../../../src/evidence/digest/tick.ts";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";

const EXIT = { OK: 0, ERROR: 2, UNEXPLAINED: 4 } as const;

export default defineMoguiCommand({
  meta: {
    name: "l1-digest tick",
    description: [
      "One observation tick: SENSE the configured repos (head, dirty), the ledger tail, job logs and monitor",
      "processes; TRIAGE repo drift as echo / expected / unexplained; RECORD the digest (and the baseline, for",
      "expected drift only); PACE the next tick. Prints the markdown digest. Exit 4 when drift is unexplained.",
    ].join("\n"),
  },
  usage: ["l1-digest tick --config <file>"],
  args: { config: { type: "string", valueHint: "file", required: true, description: "The digest config JSON" } },
  notes: [
    "Config keys: repos (paths or {path, name}), ledger_path, job_log_globs, monitor_pgrep_patterns, baseline_path,\n" +
      "digest_dir; optional ledger_tail_limit (20), max_idle_seconds (360), active_window_seconds (21600),\n" +
      "finished_markers. Relative paths resolve against the config file's directory.",
    "To pre-announce a change, put the state you expect under baseline.expected.repos.<name> ({head, dirty}).",
  ],
  examples: ["mogui l1-digest tick --config ~/.mogui/l1-digest.json"],
  async run(ctx, args) {
    let result;
    try {
      const cfg = loadDigestConfig(resolve(ctx.cwd, args.config as string), ctx.env.HOME || undefined);
      result = await tick(ctx, cfg, ctx.now());
    } catch (e) {
      if (e instanceof DigestError) throw new ExitError(EXIT.ERROR, `l1-digest: ${e.message}`);
      throw e;
    }
    ctx.io.stdout(result.digest);
    ctx.io.stderr(`l1-digest: digest written to ${result.digestPath}; next tick in ${result.nextIntervalSeconds} s\n`);
    return result.unexplained > 0 ? EXIT.UNEXPLAINED : EXIT.OK;
  },
});
