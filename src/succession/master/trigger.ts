/** §5.2 trigger detection: an explicit instruction is IMMEDIATE; pressure or a milestone only ADVISES (never spawns). */
const TRIGGER = { IMMEDIATE: "IMMEDIATE", ADVISORY: "ADVISORY", NONE: "NONE" } as const;

// The reference's phrases (the reference, pinned by its tests): what the owner types, not output; kept byte for byte.
export const IMMEDIATE_PHRASES = ["succession now", "handoff to successor", "승계해줘", "다음 마스터로 넘기자", "승계 진행해"] as const;
export const ADVISORY_RATIO = 0.6;

export interface TriggerDecision {
  status: (typeof TRIGGER)[keyof typeof TRIGGER];
  reason: string;
  message: string;
}

export function detectTrigger(text: string, context: { contextRatio?: number; milestone?: string } = {}): TriggerDecision {
  const normal = text.trim().toLowerCase();
  if (IMMEDIATE_PHRASES.some((p) => normal.includes(p))) {
    return { status: TRIGGER.IMMEDIATE, reason: "explicit succession instruction", message: "" };
  }
  if (context.contextRatio !== undefined && context.contextRatio >= ADVISORY_RATIO) {
    return {
      status: TRIGGER.ADVISORY,
      reason: "context ratio threshold reached",
      message: "Context ratio is high. Auto-succession is not permitted; propose succession only.",
    };
  }
  if (context.milestone) {
    return {
      status: TRIGGER.ADVISORY,
      reason: "natural milestone reached",
      message: "A natural milestone was reached. Auto-succession is not permitted; propose succession only.",
    };
  }
  return { status: TRIGGER.NONE, reason: "no succession trigger", message: "" };
}
