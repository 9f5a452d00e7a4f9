/** Approval gates and the single-use proposal registry (reference §15). */
import { describe, expect, test } from "bun:test";
import { actionSpec, classify, GateClass, requiresHuman } from "../../../src/evidence/approval/gates.ts";
import { AlreadyDecided, ApprovalRequired, InvalidAuthority, InvalidVerdict, ProposalRegistry, UnknownProposal } from "../../../src/evidence/approval/registry.ts";

const throws = (f: () => unknown, cls: new (...a: never[]) => Error, message: string) => {
  expect(f).toThrow(cls);
  expect(f).toThrow(message);
};

describe("classify", () => {
  test("the strictest class wins; no flags at all is G2 (fail closed); read-only + write is an error", () => {
    expect(classify(actionSpec({ readOnly: true }))).toBe(GateClass.G0_READ_ONLY);
    expect(classify(actionSpec({ writesLocal: true }))).toBe(GateClass.G1_REVERSIBLE_LOCAL);
    expect(classify(actionSpec({ writesShared: true, writesLocal: true }))).toBe(GateClass.G2_SHARED_STATE);
    expect(classify(actionSpec({ irreversible: true, writesShared: true }))).toBe(GateClass.G3_IRREVERSIBLE);
    expect(classify(actionSpec())).toBe(GateClass.G2_SHARED_STATE);
    for (const w of [{ writesLocal: true }, { writesShared: true }, { irreversible: true }]) expect(() => classify(actionSpec({ readOnly: true, ...w }))).toThrow();
    expect([GateClass.G0_READ_ONLY, GateClass.G1_REVERSIBLE_LOCAL, GateClass.G2_SHARED_STATE, GateClass.G3_IRREVERSIBLE].map(requiresHuman)).toEqual([false, false, true, true]);
  });
});

describe("ProposalRegistry", () => {
  const push = actionSpec({ writesShared: true, description: "push main" });
  const local = actionSpec({ writesLocal: true, description: "edit file" });

  test("ids are deterministic; decisions happen once; unknown ids are refused", () => {
    const r = new ProposalRegistry();
    expect([r.propose({ action: push }), r.propose({ action: local })]).toEqual(["proposal-1", "proposal-2"]);
    expect(r.pending().map((p) => p.proposalId)).toEqual(["proposal-1", "proposal-2"]);
    r.decision("proposal-2", "approved", "POLICY");
    throws(() => r.decision("proposal-2", "REJECTED", "HUMAN"), AlreadyDecided, "proposal already decided: proposal-2");
    throws(() => r.decision("proposal-9", "APPROVED", "HUMAN"), UnknownProposal, "unknown proposal: proposal-9");
    expect(r.pending().map((p) => p.proposalId)).toEqual(["proposal-1"]);
  });

  test("G2/G3 approval needs HUMAN; POLICY may approve G1 and reject anything; bad verdict and authority refused", () => {
    const r = new ProposalRegistry();
    const id = r.propose({ action: push });
    throws(() => r.decision(id, "APPROVED", "POLICY"), InvalidAuthority, "G2 and G3 approvals require HUMAN authority");
    throws(() => r.decision(id, "APPROVED", "human"), InvalidAuthority, "approval authority must be ApprovalAuthority");
    throws(() => r.decision(id, "maybe", "HUMAN"), InvalidVerdict, "unknown approval verdict: maybe");
    expect(r.get(id).state).toBe("PENDING");
    expect(r.decision(id, " rejected ", "POLICY").state).toBe("REJECTED");
    const g3 = r.propose({ action: actionSpec({ irreversible: true }) });
    throws(() => r.decision(g3, "APPROVED", "POLICY"), InvalidAuthority, "G2 and G3 approvals require HUMAN authority");
    expect(r.decision(g3, "APPROVED", "HUMAN").decision).toEqual({ verdict: "APPROVED", authority: "HUMAN" });
  });

  test("guard: G0 passes alone; otherwise one approved, matching proposal, consumed once; a mismatch does not consume", () => {
    const r = new ProposalRegistry();
    expect(r.guard(actionSpec({ readOnly: true }), null)).toBe("G0_READ_ONLY");
    throws(() => r.guard(push, null), ApprovalRequired, "approved proposal required");
    const id = r.propose({ action: push });
    throws(() => r.guard(push, id), ApprovalRequired, "approved proposal required");
    r.decision(id, "APPROVED", "HUMAN");
    throws(() => r.guard({ ...push, description: "push other" }, id), ApprovalRequired, "approved proposal does not match action");
    expect(r.get(id).state).toBe("APPROVED");
    expect(r.guard(push, id)).toBe("G2_SHARED_STATE");
    expect(r.get(id).state).toBe("CONSUMED");
    throws(() => r.guard(push, id), ApprovalRequired, "approved proposal required");
    throws(() => r.guard(push, "proposal-77"), UnknownProposal, "unknown proposal: proposal-77");
    const rej = r.propose({ action: local });
    r.decision(rej, "REJECTED", "POLICY");
    throws(() => r.guard(local, rej), ApprovalRequired, "approved proposal required");
  });
});
