/** `mogui l1-digest tick --config FILE`: one read-only observation tick (reference §12). */
import { resolve } from "node:path";
import { DigestError, loadDigestConfig } from "../../../src/evidence/digest/config.ts";
import { tick } from "../../../src/evidence/digest/tick.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";

export default defineCommand({
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
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "no unexplained repo drift (the digest on stdout)" },
    usage: { code: 2, meaning: "usage error, or a config, baseline, I/O or JSON error" },
    unexplained: { code: 4, meaning: "unexplained repo drift present" },
  },
  notes: [
    "Config keys: repos (paths or {path, name}), ledger_path, job_log_globs, monitor_pgrep_patterns, baseline_path,\n" +
      "digest_dir; optional ledger_tail_limit (20), max_idle_seconds (360), active_window_seconds (21600),\n" +
      "finished_markers. Relative paths resolve against the config file's directory.",
    "To pre-announce a change, put the state you expect under baseline.expected.repos.<name> ({head, dirty}).",
  ],
  examples: ["mogui l1-digest tick --config ~/.mogui/l1-digest.json"],
  async run({ ctx, args, fail }) {
    let result;
    try {
      const cfg = loadDigestConfig(resolve(ctx.cwd, args.config), ctx.env.HOME || undefined);
      result = await tick(ctx, cfg, ctx.now());
    } catch (e) {
      if (e instanceof DigestError) return fail("usage", `l1-digest: ${e.message}`);
      throw e;
    }
    ctx.io.stdout(result.digest);
    logger(ctx, "l1-digest").log(`digest written to ${result.digestPath}; next tick in ${result.nextIntervalSeconds} s`);
    return result.unexplained > 0 ? "unexplained" : "ok";
  },
});
