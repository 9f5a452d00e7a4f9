/**
 * `mogui top`'s judgement of one row from the facts mogui recorded or observed: its STATE, the marks
 * (stuck, escalated, verdict pending, drift) and the group it is shown in. Pure: the unit tests drive it directly.
 */

export type TopState = "working" | "blocked" | "done" | "idle" | "dead" | "unknown";

export type TopGroup = "needs_you" | "running" | "finished" | "reap_ready" | "failed";
/** The order the groups are shown in. */
export const GROUPS: readonly TopGroup[] = ["needs_you", "running", "finished", "reap_ready", "failed"];
export const GROUP_TITLES: Record<TopGroup, string> = {
  needs_you: "NEEDS YOU",
  running: "RUNNING",
  finished: "FINISHED",
  reap_ready: "REAP-READY",
  failed: "FAILED",
};

/** No transcript activity for this long while a worker's pane is live (and the job is at least this old) = stuck. */
const STUCK_SECONDS = 5 * 60;

/** Host statuses as the host adapter normalises them (herdr idle and done are both idle). */
export type PaneStatus = "working" | "idle" | "blocked" | "unknown" | "exited";

export interface Facts {
  /** Which record binds the row: a job (jobs ledger), a dispatch (dispatch ledger), or none (a scanned worktree). */
  record: "job" | "dispatch" | null;
  /** The record is open: a running job, an unsettled dispatch. */
  open: boolean;
  /** The job state (running, merged, closed, escalated) or the dispatch status (dispatched, completed, failed ...). */
  status: string | null;
  /** The recorded pane: none recorded, live (the host lists it), gone (the host does not), unmeasured (host failed). */
  pane: "none" | "live" | "gone" | "unmeasured";
  /** Status of the recorded pane when live, else of a live pane found working in the worktree; null when none. */
  paneStatus: PaneStatus | null;
  /** The worker's final report is in its inbox. */
  report: boolean;
  /** The last verdict's outcome (pass, rework, escalated, self_check, refused), or null. */
  verdict: string | null;
  /** Seconds since the last transcript activity, null when no transcript was found. */
  idleSeconds: number | null;
  /** Seconds since the worker was spawned (or the worktree added). */
  ageSeconds: number | null;
  /** The fleet reap checks would remove this worktree now. */
  reapSafe: boolean;
  /** Records that disagree (drift of the reconciled binding), as fleet scan reports them. */
  drift: boolean;
}

export interface Judgement {
  state: TopState;
  stuck: boolean;
  escalated: boolean;
  /** A report is in and no verifier has ruled yet (or a passing verdict waits for the merge decision). */
  verdictPending: boolean;
  group: TopGroup;
}

const SETTLED_BAD = new Set(["failed", "cancelled", "canceled", "aborted", "dispatch_aborted"]);

function fromPane(s: PaneStatus | null, report: boolean): TopState {
  switch (s) {
    case "working":
      return "working";
    case "blocked":
      return "blocked";
    case "idle":
      return report ? "done" : "idle";
    case "exited":
      // The pane lives, its agent is gone: finished if it left a report, else it died.
      return report ? "done" : "dead";
    default:
      return "unknown";
  }
}

function stateOf(f: Facts): TopState {
  if (f.record === null) return f.paneStatus ? fromPane(f.paneStatus, false) : "idle";
  if (!f.open) {
    if (f.status && SETTLED_BAD.has(f.status)) return "dead";
    return "done";
  }
  if (f.pane === "live") return fromPane(f.paneStatus, f.report);
  if (f.pane === "gone") return f.report ? "done" : "dead";
  if (f.pane === "unmeasured") return "unknown";
  return f.paneStatus ? fromPane(f.paneStatus, f.report) : "unknown";
}

export function classify(f: Facts): Judgement {
  const state = stateOf(f);
  const escalated = f.status === "escalated" || f.verdict === "escalated";
  const stuck = f.open && (state === "working" || state === "unknown") && f.pane !== "gone" && f.idleSeconds !== null && f.idleSeconds >= STUCK_SECONDS && (f.ageSeconds ?? 0) >= STUCK_SECONDS;
  const verdictPending = f.record === "job" && f.open && ((f.report && f.verdict === null) || f.verdict === "pass");
  let group: TopGroup;
  if (state === "blocked" || stuck || escalated || verdictPending || f.drift) group = "needs_you";
  else if (f.open) group = state === "dead" ? "failed" : "running";
  else if (f.reapSafe) group = "reap_ready";
  else if (state === "dead") group = "failed";
  else group = "finished";
  return { state, stuck, escalated, verdictPending, group };
}

/** The STATE cell: the state plus its marks (`working+stuck`, `done+escalated`). */
export function stateLabel(j: Pick<Judgement, "state" | "stuck" | "escalated">): string {
  return [j.state, ...(j.stuck ? ["stuck"] : []), ...(j.escalated ? ["escalated"] : [])].join("+");
}
