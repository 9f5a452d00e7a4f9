/** The spawn-test report: docs/reports/spawn-test-<date>.md, one row per runtime and the must-pass verdict. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MUST_PASS, reportStatusKind, type RuntimeResult, type Scenario } from "./spawn-test.ts";

export function mustPassOk(results: readonly RuntimeResult[]): boolean {
  const must = results.filter((r) => MUST_PASS.includes(r.runtime));
  return must.length > 0 && must.every((r) => r.status === "PASS");
}

const mark = (ok: boolean | null | undefined) => (ok === true ? "pass" : ok === false ? "FAIL" : "-");

export function renderReport(scenario: Scenario, date: string, results: readonly RuntimeResult[]): string {
  const ids = scenario === "happy-path" ? (["A", "B", "C"] as const) : (["D", "E"] as const);
  const names = scenario === "happy-path" ? ["A structure", "B fire log", "C round trip"] : ["D no spawn artifacts", "E refusal language"];
  const lines = [`# spawn-test ${scenario} - ${date}`, "", `| runtime | status | kind | ${names.join(" | ")} | notes |`, `|---|---|---|${names.map(() => "---|").join("")}---|`];
  for (const r of results) {
    const cells = ids.map((id) => mark(r.assertions.find((a) => a.id === id)?.ok));
    const notes =
      r.assertions
        .map((a) => `${a.id}: ${a.detail}`)
        .join("; ")
        .replace(/\|/g, "\\|") || "-";
    lines.push(`| ${r.runtime} | ${r.status.replace(/\|/g, "\\|")} | ${reportStatusKind(r.status)} | ${cells.join(" | ")} | ${notes} |`);
  }
  lines.push("", `Must-pass runtimes (${MUST_PASS.join(", ")}): ${mustPassOk(results) ? "PASS" : "FAIL"}`, "");
  return lines.join("\n");
}

export function writeReport(dir: string, date: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `spawn-test-${date}.md`);
  writeFileSync(path, text);
  return path;
}
