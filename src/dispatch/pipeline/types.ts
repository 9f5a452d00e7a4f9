/** Types shared by the stages of `mogui dispatch` (pipeline.ts, launch.ts, gate-client.ts). */
import type { TierPolicy } from "../../lib/config/tier-policy.ts";
import type { DispatchStep } from "./report.ts";

export interface DispatchRequest {
  /** Absolute path of the contract file. */
  contract: string;
  spec?: string;
  terminal?: string;
  worktree?: string;
  model?: string;
  runtime?: string;
  sameHostReason?: string;
  topApproved?: string;
  /** Only when given on the command line; the gate resolves the same default itself. */
  tierPolicy?: string;
  estChars?: number;
  transcriptGlob?: string;
  checkOnly: boolean;
  ledger: string;
  /** Test hook: the pause before each delivery poll (default 5000 ms). */
  deliveryPollMs?: number;
  /** Create and bind an Orca Run when none is bound (otherwise a missing Run refuses up front). */
  runCreate?: boolean;
  /** Test hook: the timeout of each Orca call (default 30000 ms). */
  orcaTimeoutMs?: number;
  /** `--max-tokens`: the job's token cap for the spend brake (else the tier policy's job_token_caps; D44). */
  maxTokens?: number;
}

/** What §4.2 resolution decided before any gate call. */
export interface Resolved {
  policy: TierPolicy;
  runtime: string;
  model: string;
  tier: string;
  masterHost: string;
  installed: string[];
  alternatives: string[];
}

export type Say = (line: string) => void;

export interface StopDetail {
  /** The full error text (an Orca message may be many lines); the report's `error`. */
  error?: string;
  /** Orca may have started the worker (a late answer nobody could check): keep the gate slot, never abort. */
  workerMayRun?: boolean;
}

/** Stop the pipeline here: the lines say why; the step and exit code go into the report. */
export class Stop extends Error {
  constructor(
    readonly step: DispatchStep,
    readonly code: number,
    readonly lines: readonly string[],
    readonly detail: StopDetail = {},
  ) {
    super(lines[0] ?? step);
    this.name = "Stop";
  }
}
