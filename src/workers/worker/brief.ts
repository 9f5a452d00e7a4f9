/**
 * The brief format (docs/workers.md "Brief format", fixtures/worker/brief-template.md) and its linter. A brief is
 * markdown with six parts, a declared T, an explicit environment whenever it mentions e2e, and directives mapped
 * 1:1 to acceptance criteria:
 *   - [D1] <directive>
 *   - [AC1] (D1) <a command in `backticks`> and what its output must or must not show
 * Placeholders {{WORKTREE}} {{BRANCH}} {{INBOX}} {{JOB_ID}} are filled by `worker spawn`.
 */
import { isTier, type Tier } from "./tiers.ts";

export interface Finding {
  code: string;
  line: number;
  message: string;
}

interface BriefFacts {
  tier: Tier | null;
  environment: string | null;
  worktree: string | null;
  branch: string | null;
  inbox: string | null;
  directives: string[];
  criteria: { id: string; refs: string[]; observable: boolean; line: number }[];
}

export interface LintResult {
  findings: Finding[];
  facts: BriefFacts;
}

/** Section key -> heading words that name it (case-insensitive, any heading level from ##). */
const SECTIONS: Record<string, RegExp> = {
  task: /^(task|작업)/i, // Korean heading accepted (input, kept)
  worktree: /^(worktree|workspace)/i,
  constraints: /^(constraints|제약)/i, // Korean heading accepted (input, kept)
  completion: /^(completion|report format|완료)/i, // Korean heading accepted (input, kept)
  prohibitions: /^(prohibitions|prohibited|forbidden|금지)/i, // Korean heading accepted (input, kept)
  report_channel: /^(report channel|reporting|보고)/i, // Korean heading accepted (input, kept)
};
const SECTION_TITLES: Record<string, string> = {
  task: "Task (with acceptance criteria)",
  worktree: "Worktree (path + branch)",
  constraints: "Constraints",
  completion: "Completion criteria + report format",
  prohibitions: "Prohibitions",
  report_channel: "Report channel (the job's inbox path)",
};

/** What a checkable criterion says about the output. */
const EXPECTATION = /\b(shows?|prints?|outputs?|contains?|lists?|returns?|exits?|exit code|match(es)?|equals?|is empty|must not|does not|includes?|reports?|reads?|lacks?|absent)\b/i;

function field(lines: string[], name: RegExp): { value: string; line: number } | null {
  for (const [i, l] of lines.entries()) {
    const m = l.match(new RegExp(`^\\s*(?:[-*]\\s*)?(?:\\*\\*)?(?:${name.source})(?:\\*\\*)?\\s*:\\s*(.*)$`, "i"));
    if (m) return { value: m[1]!.replace(/`/g, "").trim(), line: i + 1 };
  }
  return null;
}

function sections(lines: string[]): Map<string, { line: number; body: string[] }> {
  const out = new Map<string, { line: number; body: string[] }>();
  let current: { line: number; body: string[] } | null = null;
  for (const [i, l] of lines.entries()) {
    const h = l.match(/^#{2,6}\s+(.*)$/);
    if (h) {
      const key = Object.entries(SECTIONS).find(([, re]) => re.test(h[1]!.trim()))?.[0];
      current = key && !out.has(key) ? { line: i + 1, body: [] } : null;
      if (key && current) out.set(key, current);
      continue;
    }
    current?.body.push(l);
  }
  return out;
}

function normaliseEnvironment(v: string): string | null {
  const s = v
    .toLowerCase()
    .replace(/[\s_]+/g, "-")
    .replace(/[()]/g, "");
  if (/^test-?db\b/.test(s)) return "test-db";
  if (/^dry-?run\b/.test(s)) return "dry-run";
  if (/^production-(with-)?witness\b/.test(s)) return "production-with-witness";
  return null;
}

function criteria(lines: string[], findings: Finding[]) {
  const directives: string[] = [];
  const crits: BriefFacts["criteria"] = [];
  const seen = new Set<string>();
  for (const [i, l] of lines.entries()) {
    const d = l.match(/^\s*[-*]\s*\[(D\d+)\]\s*(.*)$/);
    const c = l.match(/^\s*[-*]\s*\[(AC\d+)\]\s*(?:\(([^)]*)\))?\s*(.*)$/);
    const id = d?.[1] ?? c?.[1];
    if (!id) continue;
    if (seen.has(id)) findings.push({ code: "DUPLICATE_ID", line: i + 1, message: `${id} is defined twice` });
    seen.add(id);
    if (d) directives.push(d[1]!);
    if (c) {
      const refs = (c[2] ?? "").split(/[,\s]+/).filter(Boolean);
      const text = c[3] ?? "";
      const observable = /`[^`]+`/.test(text) && EXPECTATION.test(text.replace(/`[^`]*`/g, " "));
      crits.push({ id: c[1]!, refs, observable, line: i + 1 });
    }
  }
  return { directives, crits };
}

function checkMapping(directives: string[], crits: BriefFacts["criteria"], dLine: Map<string, number>, findings: Finding[]): void {
  if (directives.length === 0) findings.push({ code: "NO_DIRECTIVES", line: 0, message: "no directives: list each instruction as `- [D1] ...`" });
  if (crits.length === 0) findings.push({ code: "NO_CRITERIA", line: 0, message: "no acceptance criteria: list each as `- [AC1] (D1) `<command>` shows ...`" });
  for (const c of crits) {
    if (c.refs.length === 0) findings.push({ code: "CRITERION_NO_DIRECTIVE", line: c.line, message: `${c.id} names no directive: write \`[${c.id}] (D1) ...\`` });
    for (const r of c.refs) if (!directives.includes(r)) findings.push({ code: "CRITERION_UNKNOWN_DIRECTIVE", line: c.line, message: `${c.id} refers to ${r}, which is not a directive` });
    if (!c.observable) findings.push({ code: "CRITERION_NOT_OBSERVABLE", line: c.line, message: `${c.id} names no observable check: give a command in backticks and what its output must or must not show` });
  }
  for (const d of directives) {
    const mine = crits.filter((c) => c.refs.includes(d));
    if (mine.length === 0) findings.push({ code: "DIRECTIVE_UNCHECKED", line: dLine.get(d) ?? 0, message: `${d} has no acceptance criterion: add a check for it or delete it` });
    else if (!mine.some((c) => c.observable)) findings.push({ code: "DIRECTIVE_UNCHECKED", line: dLine.get(d) ?? 0, message: `${d} has no criterion with an observable check` });
  }
}

export function lintBrief(text: string, opts: { inbox?: string; filled?: boolean } = {}): LintResult {
  const lines = text.split(/\r?\n/);
  const findings: Finding[] = [];
  const secs = sections(lines);
  for (const key of Object.keys(SECTIONS)) {
    const s = secs.get(key);
    if (!s) findings.push({ code: "MISSING_SECTION", line: 0, message: `missing section: ${SECTION_TITLES[key]} (a \`## ${SECTION_TITLES[key]!.split(" ")[0]}\` heading)` });
    else if (!s.body.some((l) => l.trim() !== "")) findings.push({ code: "EMPTY_SECTION", line: s.line, message: `section ${SECTION_TITLES[key]} is empty` });
  }
  const t = field(lines, /T|Tier|Scale/);
  const tier = t && isTier(t.value.split(/\s/)[0]!.toUpperCase()) ? (t.value.split(/\s/)[0]!.toUpperCase() as Tier) : null;
  if (!t) findings.push({ code: "MISSING_TIER", line: 0, message: "no declared T: add a line `T: T0|T1|T2|T3`" });
  else if (!tier) findings.push({ code: "BAD_TIER", line: t.line, message: `declared T '${t.value}' is not one of T0, T1, T2, T3` });
  const env = field(lines, /Environment|Env/);
  const environment = env ? normaliseEnvironment(env.value) : null;
  if (env && !environment) findings.push({ code: "BAD_ENVIRONMENT", line: env.line, message: `environment '${env.value}' is not one of: test DB, dry-run, production-with-witness` });
  const e2e = lines.findIndex((l) => /\be2e\b|end-to-end/i.test(l));
  if (e2e >= 0 && !env) findings.push({ code: "MISSING_ENVIRONMENT", line: e2e + 1, message: "the brief mentions e2e but names no environment: add `Environment: test DB | dry-run | production-with-witness`" });
  const wt = field(lines, /Path|Worktree path/);
  const br = field(lines, /Branch/);
  const ib = field(lines, /Inbox|Report path/);
  if (!wt?.value) findings.push({ code: "MISSING_WORKTREE_PATH", line: 0, message: "no worktree path: add `Path: {{WORKTREE}}` under Worktree" });
  if (!br?.value) findings.push({ code: "MISSING_BRANCH", line: 0, message: "no branch: add `Branch: {{BRANCH}}` under Worktree" });
  if (!ib?.value) findings.push({ code: "MISSING_INBOX", line: 0, message: "no report channel path: add `Inbox: {{INBOX}}` under Report channel (the job's inbox, never a message to the spawner)" });
  else if (ib.value !== "{{INBOX}}" && !ib.value.startsWith("/") && !ib.value.startsWith("~/")) {
    findings.push({ code: "INBOX_NOT_A_PATH", line: ib.line, message: `report channel '${ib.value}' is not a path: name the job's inbox directory (never the spawner's pane)` });
  } else if (opts.inbox && ib.value.replace(/\/+$/, "") !== opts.inbox.replace(/\/+$/, "") && ib.value !== "{{INBOX}}") {
    findings.push({ code: "INBOX_MISMATCH", line: ib.line, message: `report channel '${ib.value}' is not the job's inbox ${opts.inbox}` });
  }
  if (opts.filled) {
    for (const [i, l] of lines.entries()) {
      const m = l.match(/\{\{[A-Z_]+\}\}/);
      if (m) findings.push({ code: "UNFILLED_PLACEHOLDER", line: i + 1, message: `${m[0]} was not filled in` });
    }
  }
  const { directives, crits } = criteria(lines, findings);
  const dLine = new Map<string, number>();
  for (const [i, l] of lines.entries()) {
    const m = l.match(/^\s*[-*]\s*\[(D\d+)\]/);
    if (m && !dLine.has(m[1]!)) dLine.set(m[1]!, i + 1);
  }
  checkMapping(directives, crits, dLine, findings);
  findings.sort((a, b) => a.line - b.line || a.code.localeCompare(b.code));
  const facts: BriefFacts = { tier, environment, worktree: wt?.value || null, branch: br?.value || null, inbox: ib?.value || null, directives, criteria: crits };
  return { findings, facts };
}

export function fillBrief(text: string, vars: { worktree: string; branch: string; inbox: string; jobId: string }): string {
  return text.replaceAll("{{WORKTREE}}", vars.worktree).replaceAll("{{BRANCH}}", vars.branch).replaceAll("{{INBOX}}", vars.inbox).replaceAll("{{JOB_ID}}", vars.jobId);
}
