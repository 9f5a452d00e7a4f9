/** The result of one `mogui dispatch` run: what it decided and created, for --json and the summary line. */
import type { Delivery } from "./orca-steps.ts";
import type { ProbeState } from "./probe-target.ts";
import type { MasterHostSource } from "./runtime.ts";

export const DISPATCH_EXIT = {
  OK: 0, // dispatched (delivery verified or unverified), or --check-only passed the dry gate
  INPUT: 1, // contract file missing, or --spec missing without --check-only (the reference's usage exit)
  REFUSED: 2, // gate deny, model/runtime mismatch, top tier without approval, pre-trust failed, bad config or ledger
  ORCA: 3, // an Orca step failed before the worker started (or a late answer left its state unknown): nothing registered
  REGISTER: 4, // register denied or failed: the worker IS running, resolve by hand
  DELIVERY: 5, // delivery failed: the pane shows a trust/login gate or a provider limit
} as const;

export type DispatchStep =
  | "contract"
  | "spec"
  | "instance-config"
  | "tier-policy"
  | "model-runtime"
  | "top-approval"
  | "dry-gate"
  | "check-only"
  | "pretrust"
  | "ledger"
  | "run"
  | "gate"
  | "task-create"
  | "terminal"
  | "dispatch"
  | "register"
  | "delivery"
  | "done";

export interface DispatchReport {
  exit: number;
  step: DispatchStep;
  check_only: boolean;
  ledger: string;
  runtime: string | null;
  model: string | null;
  tier: string | null;
  est_chars: number | null;
  contract_sha: string | null;
  master_host_runtime: string | null;
  master_host_source: MasterHostSource | null;
  same_host: boolean | null;
  installed_runtimes: string[];
  gate_reason: string | null;
  gate_warnings: string[];
  collisions: string[];
  task_id: string | null;
  terminal: string | null;
  terminal_reused: boolean | null;
  dispatch_id: string | null;
  register_reason: string | null;
  register_warnings: string[];
  probe: ProbeState | null;
  delivery: { pre: string; post: string; class: string; polls: number } | null;
  /** The Orca Run the task went into, and whether this run created it (--run-create). */
  run_id: string | null;
  run_created: boolean;
  /** The full text of the error that stopped the run (the ✗ line on stderr is one line, maybe cut). */
  error: string | null;
  /** D38: what Orca said after a late answer (one entry per step that timed out). */
  reconciled: string[];
  /** D38: the dispatch ended before its worker started: the cancelled check ALLOW row's attempt. */
  aborted_attempt: number | null;
  /** What the run leaves behind in Orca after a failure (task, terminal), for a human to clean up. */
  left_behind: string[];
  /** D44: the spend brake wired into the worker's worktree settings (job = the Orca task id), or null. */
  spend_brake: { job: string; max_tokens: number; source: "flag" | "policy"; settings: string } | null;
}

export function emptyReport(ledger: string, checkOnly: boolean): DispatchReport {
  return {
    exit: DISPATCH_EXIT.OK,
    step: "contract",
    check_only: checkOnly,
    ledger,
    runtime: null,
    model: null,
    tier: null,
    est_chars: null,
    contract_sha: null,
    master_host_runtime: null,
    master_host_source: null,
    same_host: null,
    installed_runtimes: [],
    gate_reason: null,
    gate_warnings: [],
    collisions: [],
    task_id: null,
    terminal: null,
    terminal_reused: null,
    dispatch_id: null,
    register_reason: null,
    register_warnings: [],
    probe: null,
    delivery: null,
    run_id: null,
    run_created: false,
    error: null,
    reconciled: [],
    aborted_attempt: null,
    left_behind: [],
    spend_brake: null,
  };
}

export function deliveryJson(d: Delivery): DispatchReport["delivery"] {
  return { pre: d.pre, post: d.post, class: d.result, polls: d.polls };
}

/** One greppable line for stdout without --json: the ids a caller needs next. */
export function summaryLine(r: DispatchReport): string {
  const fields: [string, unknown][] = [
    ["exit", r.exit],
    ["step", r.step],
    ["runtime", r.runtime],
    ["model", r.model],
    ["tier", r.tier],
    ["contract_sha", r.contract_sha],
    ["task", r.task_id],
    ["terminal", r.terminal],
    ["dispatch", r.dispatch_id],
    ["delivery", r.delivery?.class ?? null],
  ];
  return fields
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ");
}
