/**
 * The single-use proposal registry (reference §15): Proposal -> Approval -> Execution. In memory and
 * deterministic (ids proposal-1, proposal-2, ...). `guard` consumes an approved proposal; a mismatched action is
 * refused WITHOUT consuming it, so the right action can still run on it.
 */
import { classify, GateClass, requiresHuman, sameAction, type ActionSpec } from "./gates.ts";

const ApprovalVerdict = { APPROVED: "APPROVED", REJECTED: "REJECTED" } as const;
type ApprovalVerdict = (typeof ApprovalVerdict)[keyof typeof ApprovalVerdict];
const ApprovalAuthority = { HUMAN: "HUMAN", POLICY: "POLICY" } as const;
type ApprovalAuthority = (typeof ApprovalAuthority)[keyof typeof ApprovalAuthority];
const ProposalState = { PENDING: "PENDING", APPROVED: "APPROVED", REJECTED: "REJECTED", CONSUMED: "CONSUMED" } as const;
type ProposalState = (typeof ProposalState)[keyof typeof ProposalState];

class ApprovalError extends Error {}
export class UnknownProposal extends ApprovalError {
  override name = "UnknownProposal";
}
export class AlreadyDecided extends ApprovalError {
  override name = "AlreadyDecided";
}
export class InvalidAuthority extends ApprovalError {
  override name = "InvalidAuthority";
}
export class ApprovalRequired extends ApprovalError {
  override name = "ApprovalRequired";
}
export class InvalidVerdict extends ApprovalError {
  override name = "InvalidVerdict";
}

export interface ProposalSpec {
  action: ActionSpec;
  description?: string;
}

interface DecisionRecord {
  verdict: ApprovalVerdict;
  authority: ApprovalAuthority;
}

export interface ProposalRecord {
  proposalId: string;
  spec: ProposalSpec;
  decision: DecisionRecord | null;
  state: ProposalState;
}

/** The enum value itself or a case-insensitive name. */
function parseVerdict(raw: unknown): ApprovalVerdict {
  if (typeof raw === "string") {
    const up = raw.trim().toUpperCase();
    if (up === "APPROVED" || up === "REJECTED") return up;
  }
  throw new InvalidVerdict(`unknown approval verdict: ${String(raw)}`);
}

/** Authorities are the enum values only: a look-alike string from elsewhere is refused. */
function checkAuthority(raw: unknown): ApprovalAuthority {
  if (raw === ApprovalAuthority.HUMAN || raw === ApprovalAuthority.POLICY) return raw;
  throw new InvalidAuthority("approval authority must be ApprovalAuthority");
}

export class ProposalRegistry {
  private readonly records = new Map<string, ProposalRecord>();
  private next = 1;

  propose(spec: ProposalSpec): string {
    const id = `proposal-${this.next++}`;
    this.records.set(id, { proposalId: id, spec: { action: { ...spec.action }, description: spec.description ?? "" }, decision: null, state: ProposalState.PENDING });
    return id;
  }

  get(id: string): ProposalRecord {
    const r = this.records.get(id);
    if (!r) throw new UnknownProposal(`unknown proposal: ${id}`);
    return r;
  }

  decision(id: string, verdict: unknown, authority: unknown): ProposalRecord {
    const r = this.get(id);
    if (r.decision !== null) throw new AlreadyDecided(`proposal already decided: ${id}`);
    const auth = checkAuthority(authority);
    const v = parseVerdict(verdict);
    if (v === ApprovalVerdict.APPROVED && requiresHuman(classify(r.spec.action)) && auth !== ApprovalAuthority.HUMAN) {
      throw new InvalidAuthority("G2 and G3 approvals require HUMAN authority");
    }
    r.decision = { verdict: v, authority: auth };
    r.state = v === ApprovalVerdict.APPROVED ? ProposalState.APPROVED : ProposalState.REJECTED;
    return r;
  }

  pending(): ProposalRecord[] {
    return [...this.records.values()].filter((r) => r.state === ProposalState.PENDING);
  }

  /** G0 passes without a proposal; anything else needs an approved proposal for exactly this action, used once. */
  guard(action: ActionSpec, proposalId: string | null | undefined): GateClass {
    const gate = classify(action);
    if (gate === GateClass.G0_READ_ONLY) return gate;
    if (proposalId === null || proposalId === undefined) throw new ApprovalRequired("approved proposal required");
    const r = this.get(proposalId);
    if (r.state !== ProposalState.APPROVED) throw new ApprovalRequired("approved proposal required");
    if (!sameAction(r.spec.action, action)) throw new ApprovalRequired("approved proposal does not match action");
    r.state = ProposalState.CONSUMED;
    return gate;
  }
}
