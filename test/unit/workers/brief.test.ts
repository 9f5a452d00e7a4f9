import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../helpers/paths.ts";
import { fillBrief, lintBrief } from "../../../src/workers/worker/brief.ts";

const TEMPLATE = readFileSync(join(ROOT, "fixtures", "worker", "brief-template.md"), "utf8");
const codes = (text: string, opts = {}) => lintBrief(text, opts).findings.map((f) => f.code);

describe("brief-lint", () => {
  test("the shipped template is clean, and its facts are read", () => {
    const r = lintBrief(TEMPLATE);
    expect(r.findings).toEqual([]);
    expect(r.facts).toMatchObject({ tier: "T1", environment: "dry-run", worktree: "{{WORKTREE}}", branch: "{{BRANCH}}", inbox: "{{INBOX}}", directives: ["D1", "D2"] });
  });

  test("each of the six parts is required", () => {
    for (const heading of ["## Task", "## Worktree", "## Constraints", "## Completion", "## Prohibitions", "## Report channel"]) {
      const text = TEMPLATE.replace(heading, "## Something else");
      expect(codes(text)).toContain("MISSING_SECTION");
    }
  });

  test("a directive without a criterion, a criterion without a check, and dangling references are findings", () => {
    const extra = TEMPLATE.replace("- [D2] <another instruction>", "- [D2] <another instruction>\n- [D3] use model luna at grade B");
    const f = lintBrief(extra).findings;
    expect(f.find((x) => x.code === "DIRECTIVE_UNCHECKED")?.message).toContain("D3 has no acceptance criterion");
    const prose = TEMPLATE.replace("- [AC2] (D2) `git diff --name-only origin/main` must not show any path under `config/`.", "- [AC2] (D2) reflect the config change in the report");
    expect(codes(prose)).toEqual(expect.arrayContaining(["CRITERION_NOT_OBSERVABLE", "DIRECTIVE_UNCHECKED"]));
    const dangling = TEMPLATE.replace("- [AC2] (D2)", "- [AC2] (D9)");
    expect(codes(dangling)).toEqual(expect.arrayContaining(["CRITERION_UNKNOWN_DIRECTIVE", "DIRECTIVE_UNCHECKED"]));
    expect(codes(TEMPLATE.replace("- [AC2] (D2)", "- [AC2]"))).toContain("CRITERION_NO_DIRECTIVE");
    expect(codes(TEMPLATE.replace("- [D2]", "- [D1]"))).toContain("DUPLICATE_ID");
  });

  test("T must be declared; e2e needs an environment", () => {
    expect(codes(TEMPLATE.replace("- T: T1\n", ""))).toContain("MISSING_TIER");
    expect(codes(TEMPLATE.replace("- T: T1", "- T: T9"))).toContain("BAD_TIER");
    const e2e = TEMPLATE.replace("- Environment: dry-run\n", "").replace("<What to build", "Run the e2e suite. <What to build");
    expect(codes(e2e)).toContain("MISSING_ENVIRONMENT");
    expect(codes(TEMPLATE.replace("dry-run", "staging"))).toContain("BAD_ENVIRONMENT");
    for (const env of ["test DB", "dry run", "production-with-witness", "production (with witness)"]) {
      expect(codes(TEMPLATE.replace("dry-run", env))).toEqual([]);
    }
  });

  test("the report channel must be the job's inbox; spawn refuses unfilled placeholders", () => {
    const filled = fillBrief(TEMPLATE, { worktree: "/w/x", branch: "worker/x", inbox: "/h/inbox/jobs/j1", jobId: "j1" });
    expect(lintBrief(filled, { inbox: "/h/inbox/jobs/j1", filled: true }).findings).toEqual([]);
    expect(codes(filled, { inbox: "/h/inbox/jobs/OTHER" })).toEqual(["INBOX_MISMATCH"]);
    expect(codes(TEMPLATE, { filled: true })).toContain("UNFILLED_PLACEHOLDER");
    expect(codes(TEMPLATE.replace("- Inbox: {{INBOX}}", "- send the result to my pane"))).toContain("MISSING_INBOX");
  });
});

test("the report channel must be a path, never the spawner's pane", () => {
  expect(codes(TEMPLATE.replace("- Inbox: {{INBOX}}", "- Inbox: orch pane w1:p1"))).toEqual(["INBOX_NOT_A_PATH"]);
  expect(codes(TEMPLATE.replace("- Inbox: {{INBOX}}", "- Inbox: ~/work/inbox/jobs/j1"))).toEqual([]);
});
