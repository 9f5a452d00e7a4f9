/** The Fleet family (help group "Fleet"): its rows of the loader map (each command declares its own exits). */
import type { FamilyRow } from "../entry.ts";

export const title = "Fleet";

export const commands = {
  "fleet scan": { summary: "Every worktree of some repositories: open/settled/orphaned, safety verdict, size, processes, age", load: () => import("./fleet/scan.ts") },
  "fleet reap": { summary: "Remove settled and orphaned worktrees that are safe, stopping the processes left inside (dry run unless --execute)", load: () => import("./fleet/reap.ts") },
  top: { summary: "Live full-screen view of every worker and worktree: what needs you, observed model, spend, pushed, verdict, reap (--once for one frame)", load: () => import("./top.ts") },
  fleet: { summary: "Fleet hygiene: scan and reap worktrees (group)", hidden: true, load: () => import("./fleet/index.ts") },
  "spend record": { summary: "Append measured token usage from the workers' own transcripts to the spend ledger (idempotent)", load: () => import("./spend/record.ts") },
  "spend report": { summary: "Input, output and cache tokens per job, model, tier or day; cost with a user price table", load: () => import("./spend/report.ts") },
  "spend watch": { summary: "Exit 3 once a job's measured tokens pass --max-tokens (for a hook or a loop)", load: () => import("./spend/watch.ts") },
  spend: { summary: "Token spend from the workers' transcripts (group)", hidden: true, load: () => import("./spend/index.ts") },
} satisfies Record<string, FamilyRow>;
