/** §5.4: grade a successor's recovery report. Any MISS fails closed; otherwise count the three checks. */
import { SuccessionError } from "./errors.ts";

const VERIFY = { PASS: "PASS", PARTIAL: "PARTIAL", FAILED: "FAILED" } as const;

export interface VerificationReport {
  status: (typeof VERIFY)[keyof typeof VERIFY];
  checks: string[];
  evidence: string;
}

export function verifySuccessor(report: unknown): VerificationReport {
  if (!report || typeof report !== "object" || Array.isArray(report)) throw new SuccessionError("recovery report must be a JSON object");
  const rawSteps = (report as Record<string, unknown>).steps;
  if (rawSteps !== undefined && !Array.isArray(rawSteps)) throw new SuccessionError("recovery report steps must be a list");
  const steps = new Map<string, string>();
  let miss = false;
  for (const s of (rawSteps ?? []) as unknown[]) {
    if (!s || typeof s !== "object") continue;
    const step = String((s as Record<string, unknown>).step ?? "");
    const status = String((s as Record<string, unknown>).status ?? "");
    if (status === "MISS") miss = true;
    if (!steps.has(step)) steps.set(step, status);
  }
  if (miss) return { status: VERIFY.FAILED, checks: ["fail-closed recovery miss"], evidence: "MISS in recovery steps" };
  const checks: string[] = [];
  if (steps.get("6") === "OK") checks.push("open tracks recited");
  // An absent 2-3 step counts (reference behaviour, open question 15): nothing was observed to differ.
  const baseline = steps.get("2-3");
  if (baseline === undefined || baseline === "OK") checks.push("baseline matched");
  if (steps.get("5") === "OK") checks.push("monitors rearmed");
  const status = checks.length === 3 ? VERIFY.PASS : checks.length > 0 ? VERIFY.PARTIAL : VERIFY.FAILED;
  return { status, checks, evidence: `checks=${checks.join(",")}` };
}
