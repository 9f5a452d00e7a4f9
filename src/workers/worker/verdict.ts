/**
 * Verdicts (spawn-worker §5): findings carry BLOCKER / SHOULD / NICE. Only BLOCKERs open a rework round; SHOULD and
 * NICE are follow-ups that never block. Hard cap: 3 rounds; a 4th is refused and the job is escalated. A T3 job
 * refuses a verifier of the implementer's provider family; a self-verification is recorded but never independent.
 */
import * as v from "valibot";
import { type Job, roundsOpened } from "./jobs.ts";
import { type Grade, gradeRank, isGrade, MAX_ROUNDS, SEVERITIES, type Severity } from "./tiers.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface FindingItem {
  severity: Severity;
  title: string;
}

export class FindingsError extends Error {}

const Item = v.object({ severity: v.picklist(SEVERITIES), title: v.pipe(v.string(), v.minLength(1)), detail: v.optional(v.string()) });
const Doc = v.union([v.array(Item), v.looseObject({ findings: v.array(Item) })]);

/** JSON (`[{severity,title}]` or `{findings:[...]}`) or markdown lines `- [BLOCKER] title` / `- SHOULD: title`. */
export function parseFindings(text: string): FindingItem[] {
  const t = text.trim();
  if (t.startsWith("{") || t.startsWith("[")) {
    let raw: unknown;
    try {
      raw = JSON.parse(t);
    } catch (e) {
      throw new FindingsError(`not JSON: ${errorMessage(e)}`);
    }
    const r = v.safeParse(Doc, raw);
    if (!r.success) throw new FindingsError(v.summarize(r.issues).replace(/\n/g, "; "));
    const items = Array.isArray(r.output) ? r.output : r.output.findings;
    return items.map((i) => ({ severity: i.severity, title: i.title }));
  }
  const out: FindingItem[] = [];
  for (const [n, line] of t.split("\n").entries()) {
    const m = line.match(/^\s*[-*]\s*(?:\[([A-Za-z]+)\]|([A-Za-z]+):)\s*(.*)$/);
    if (!m) continue;
    const sev = (m[1] ?? m[2])!.toUpperCase();
    if (!(SEVERITIES as readonly string[]).includes(sev)) throw new FindingsError(`line ${n + 1}: severity '${m[1] ?? m[2]}' is not BLOCKER, SHOULD or NICE`);
    if (!m[3]!.trim()) throw new FindingsError(`line ${n + 1}: a ${sev} finding needs a title`);
    out.push({ severity: sev as Severity, title: m[3]!.trim() });
  }
  return out;
}

export interface VerdictInput {
  findings: FindingItem[];
  verifierModel: string;
  verifierProvider: string | null;
  verifierSession: string;
  verifierGrade?: Grade;
  self: boolean;
}

type VerdictOutcome = "pass" | "rework" | "escalated" | "self_check" | "refused";

export interface VerdictDecision {
  outcome: VerdictOutcome;
  independent: boolean;
  round: number | null;
  reason: string;
  blockers: string[];
  followups: FindingItem[];
}

export function decideVerdict(job: Job, inp: VerdictInput): VerdictDecision {
  const blockers = inp.findings.filter((f) => f.severity === "BLOCKER").map((f) => f.title);
  const followups = inp.findings.filter((f) => f.severity !== "BLOCKER");
  const base = { blockers, followups, round: null as number | null };
  const self = inp.self || inp.verifierSession === job.spawn.agent_name;
  const tier = job.spawn.tier;
  const implGrade = String(job.spawn.profile_grade ?? job.spawn.grade ?? "");
  if (inp.verifierGrade && isGrade(implGrade) && gradeRank(inp.verifierGrade) < gradeRank(implGrade)) {
    return { ...base, outcome: "refused", independent: false, reason: `verifier grade ${inp.verifierGrade} is below the implementer grade ${implGrade}` };
  }
  if (tier === "T3" && !self) {
    if (!inp.verifierProvider) return { ...base, outcome: "refused", independent: false, reason: `T3: the verifier model '${inp.verifierModel}' has no known provider family, so it cannot be shown to differ from the implementer's (${job.spawn.provider})` };
    if (inp.verifierProvider === job.spawn.provider) {
      return { ...base, outcome: "refused", independent: false, reason: `T3: the verifier (${inp.verifierModel}, ${inp.verifierProvider}) is of the implementer's provider family; a T3 verifier must come from a different family` };
    }
  }
  if (self && tier !== "T1") {
    return { ...base, outcome: "self_check", independent: false, reason: `a self-verification is submission evidence only; ${tier} needs an independent verifier` };
  }
  if (blockers.length === 0) return { ...base, outcome: "pass", independent: !self, reason: followups.length ? `no BLOCKER; ${followups.length} follow-up(s) recorded` : "no findings" };
  const round = roundsOpened(job) + 1;
  if (round > MAX_ROUNDS) {
    return { ...base, round, outcome: "escalated", independent: !self, reason: `a ${round}th rework round is refused (cap ${MAX_ROUNDS}): the design is unclear; escalated to a person` };
  }
  return { ...base, round, outcome: "rework", independent: !self, reason: `${blockers.length} BLOCKER(s) open rework round ${round} of ${MAX_ROUNDS}` };
}

/** May the job be marked merged? A verified push, and for T2/T3 an independent pass after the last rework. */
export function mergeGate(job: Job): string | null {
  const push = job.pushes.at(-1);
  if (!push) return "no verified push: run `mogui worker verify-push --job` first";
  if (push.ok !== true) return `the last push check failed: ${String(push.reason)}`;
  const counted = job.verdicts.filter((v) => v.outcome === "pass" || v.outcome === "rework");
  const last = counted.at(-1);
  if (last?.outcome === "rework") return `rework round ${String(last.round)} is open (BLOCKERs: ${(last.blockers as string[]).join("; ")})`;
  if (job.spawn.tier !== "T1" && !(last?.outcome === "pass" && last.independent === true)) {
    return `${job.spawn.tier} needs an independent verifier's passing verdict (self-checks do not count)`;
  }
  return null;
}
