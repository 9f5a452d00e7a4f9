/**
 * Approval gates (reference §15): every action is classified into the strictest gate class its flags imply, and
 * an action with no flags at all is shared-state (fail closed: "unclassified" never means "harmless").
 */
export const GateClass = {
  G0_READ_ONLY: "G0_READ_ONLY",
  G1_REVERSIBLE_LOCAL: "G1_REVERSIBLE_LOCAL",
  G2_SHARED_STATE: "G2_SHARED_STATE",
  G3_IRREVERSIBLE: "G3_IRREVERSIBLE",
} as const;
export type GateClass = (typeof GateClass)[keyof typeof GateClass];

export interface ActionSpec {
  readOnly: boolean;
  writesLocal: boolean;
  writesShared: boolean;
  irreversible: boolean;
  description: string;
}

export function actionSpec(over: Partial<ActionSpec> = {}): ActionSpec {
  return { readOnly: false, writesLocal: false, writesShared: false, irreversible: false, description: "", ...over };
}

/** Equality includes the description (an approved spec authorises exactly that action). */
export function sameAction(a: ActionSpec, b: ActionSpec): boolean {
  return a.readOnly === b.readOnly && a.writesLocal === b.writesLocal && a.writesShared === b.writesShared && a.irreversible === b.irreversible && a.description === b.description;
}

export class ActionSpecError extends Error {
  override name = "ActionSpecError";
}

export function classify(action: ActionSpec): GateClass {
  if (action.readOnly && (action.writesLocal || action.writesShared || action.irreversible)) {
    throw new ActionSpecError("a read-only action cannot also write or be irreversible");
  }
  if (action.irreversible) return GateClass.G3_IRREVERSIBLE;
  if (action.writesShared) return GateClass.G2_SHARED_STATE;
  if (action.writesLocal) return GateClass.G1_REVERSIBLE_LOCAL;
  if (!action.readOnly) return GateClass.G2_SHARED_STATE;
  return GateClass.G0_READ_ONLY;
}

/** G2 and G3 approvals need a human; POLICY may approve G1 and reject anything. */
export function requiresHuman(gate: GateClass): boolean {
  return gate === GateClass.G2_SHARED_STATE || gate === GateClass.G3_IRREVERSIBLE;
}
