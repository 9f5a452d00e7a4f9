/** The Fleet family (help group "Fleet"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";


export const title = "Fleet";

export const commands = {
  "fleet scan": { summary: "Every worktree of some repositories: open/settled/orphaned, safety verdict, size, processes, age", load: () => import("./fleet/scan.ts") },
  "fleet reap": { summary: "Remove settled and orphaned worktrees that are safe, stopping the processes left inside (dry run unless --execute)", load: () => import("./fleet/reap.ts") },
  "spend record": { summary: "Append measured token usage from the workers' own transcripts to the spend ledger (idempotent)", load: () => import("./spend/record.ts") },
  "spend report": { summary: "Input, output and cache tokens per job, model, tier or day; cost with a user price table", load: () => import("./spend/report.ts") },
  "spend watch": { summary: "Exit 3 once a job's measured tokens pass --max-tokens (for a hook or a loop)", load: () => import("./spend/watch.ts") },
} satisfies Record<string, FamilyRow>;

const SPEND_FAULT = "spend ledger or its state unreadable, unwritable, corrupt or locked (`spend <cmd>: LEDGER_UNAVAILABLE: <why>`)";

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "fleet scan": [
    { code: 0, meaning: "scan printed (processes or panes that could not be measured are marked, with a warning)" },
    { code: 2, meaning: "usage; a --repo that is not a git repository; a ledger unreadable or corrupt (LEDGER_UNAVAILABLE)" },
  ],
  "fleet reap": [
    { code: 0, meaning: "every candidate worktree was removed (or would be, in a dry run) or left with its reason" },
    { code: 1, meaning: "an action failed: a terminal close, a process that survived SIGKILL, git worktree remove, or a fleet_reap row not written" },
    { code: 2, meaning: "usage; a --repo that is not a git repository; a ledger unreadable, unwritable or corrupt (LEDGER_UNAVAILABLE)" },
  ],
  "spend record": [
    { code: 0, meaning: "recorded (nothing new to record is also 0; jobs without a transcript are warned about)" },
    { code: 2, meaning: `usage; unknown job; a named --transcript that does not exist; ${SPEND_FAULT}` },
  ],
  "spend report": [
    { code: 0, meaning: "report printed (a missing ledger is an empty report)" },
    { code: 2, meaning: `usage; an invalid price table; ${SPEND_FAULT}` },
  ],
  "spend watch": [
    { code: 0, meaning: "the job's measured tokens are at or under --max-tokens" },
    { code: 2, meaning: `usage; unknown job; the job's transcript cannot be found (TRANSCRIPT_NOT_FOUND); ${SPEND_FAULT}` },
    { code: 3, meaning: "the job's measured tokens passed --max-tokens" },
  ],
};
