/**
 * The preflight verdict (reference §23): run every check in order, downgrade waived FAILs (PREFLIGHT_WAIVE), name
 * waivers that matched no check (typos stay enforced), list the essential gaps, and decide READY / READY WITH
 * WAIVERS / BLOCKED.
 */
import * as c from "./checks.ts";
import type { Host, Line } from "./checks.ts";

/** D30: python3 and pytest are gone; the native redaction engine makes gitleaks optional, so it is not essential. */
const ESSENTIAL = ["orca", "orchestration", "skills", "agent-cli", "worker-runtime", "bd", "mogui", "ctx", "redaction-extra", "skill-stack"];

type Verdict = "READY" | "READY WITH WAIVERS" | "BLOCKED";

interface ReportLine extends Line {
  waived: boolean;
}

export interface Report {
  orca: string;
  lines: ReportLine[];
  counts: { pass: number; warn: number; fail: number; waived: number };
  waivedLabels: string[];
  unknownWaivers: string[];
  essentialGaps: Line[];
  verdict: Verdict;
}

export function parseWaivers(raw: string | undefined): string[] {
  if (!raw) return [];
  return [...new Set(raw.replace(/\s+/g, "").split(",").filter(Boolean))];
}

export async function runChecks(h: Host): Promise<{ orca: string; lines: Line[] }> {
  const orca = await c.checkOrca(h);
  const lines: Line[] = [...orca.lines];
  lines.push(...(await c.checkOrchestration(h, orca.orca, orca.ok)));
  lines.push(...(await c.checkSkills(h)));
  lines.push(...c.checkCodexPlugin(h), ...c.checkSkillStack(h), ...c.checkRedactionExtra(h));
  lines.push(...(await c.checkBd(h)));
  lines.push(...c.checkMogui(h), ...c.checkAgentCli(h), ...c.checkWorkerRuntimes(h));
  lines.push(...(await c.checkTools(h)));
  lines.push(...c.checkGateLedger(h), ...(await c.checkProtection(h)));
  return { orca: orca.orca, lines };
}

export function decide(orca: string, lines: Line[], waivers: string[]): Report {
  const ran = new Set(lines.filter((l) => l.label).map((l) => l.label));
  const out: ReportLine[] = lines.map((l) => ({ ...l, waived: l.status === "FAIL" && waivers.includes(l.label) }));
  const count = (s: string) => out.filter((l) => l.status === s && !l.waived).length;
  const waivedLabels = [...new Set(out.filter((l) => l.waived).map((l) => l.label))];
  const counts = { pass: count("PASS"), warn: count("WARN"), fail: count("FAIL"), waived: out.filter((l) => l.waived).length };
  const essentialGaps = out.filter((l) => ESSENTIAL.includes(l.label) && ((l.status === "FAIL" && !l.waived) || l.status === "WARN"));
  const verdict: Verdict = counts.fail > 0 ? "BLOCKED" : counts.waived > 0 ? "READY WITH WAIVERS" : "READY";
  return { orca, lines: out, counts, waivedLabels, unknownWaivers: waivers.filter((w) => !ran.has(w)), essentialGaps, verdict };
}

export function renderText(r: Report): string[] {
  const out: string[] = [];
  for (const l of r.lines) {
    if (l.waived) out.push(`WAIVED ${l.label.padEnd(12)} ${l.msg} (downgraded from FAIL by PREFLIGHT_WAIVE)`);
    else if (l.status === "INFO" && !l.label) out.push(`INFO ${l.msg}`);
    else if (l.status === "FIX") out.push(`FIX  ${l.label.padEnd(14)} ${l.msg}`);
    else out.push(`${l.status} ${l.label.padEnd(14)} ${l.msg}`);
  }
  out.push("", "Preflight summary", `  PASS: ${r.counts.pass}`, `  WARN: ${r.counts.warn}`, `  FAIL: ${r.counts.fail}`);
  out.push(`  WAIVED: ${r.counts.waived}${r.waivedLabels.length ? ` (${r.waivedLabels.join(", ")})` : ""}`);
  if (r.unknownWaivers.length) out.push(`  NOTE: PREFLIGHT_WAIVE named checks that did not run: ${r.unknownWaivers.join(", ")}; those checks are still enforced`);
  if (r.essentialGaps.length) {
    out.push(`  !! ESSENTIAL COMPONENTS MISSING (${r.essentialGaps.length}) — the harness will not behave as documented`);
    for (const g of r.essentialGaps) out.push(`  !!   ${g.label} ${g.msg}`);
    out.push("  !! These are not preferences. Install them, or expect the documented behaviour to be missing.");
  }
  if (r.verdict === "BLOCKED") out.push("  BLOCKED: fix every FAIL before onboarding");
  else if (r.verdict === "READY WITH WAIVERS") out.push(`  READY WITH WAIVERS: ${r.counts.waived} required check(s) were downgraded, not satisfied`);
  else out.push("  READY: all required checks passed");
  return out;
}

export function renderJson(r: Report): Record<string, unknown> {
  return {
    orca_cli: r.orca,
    checks: r.lines.filter((l) => l.label).map((l) => ({ label: l.label, status: l.waived ? "WAIVED" : l.status, message: l.msg })),
    summary: { ...r.counts, waived_labels: r.waivedLabels },
    unknown_waivers: r.unknownWaivers,
    essential_gaps: r.essentialGaps.map((g) => ({ label: g.label, message: g.msg })),
    verdict: r.verdict,
  };
}
