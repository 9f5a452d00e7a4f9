import { expect, test } from "bun:test";
import type { Line } from "../../../src/publishing/preflight/checks.ts";
import { decide, parseWaivers, renderText } from "../../../src/publishing/preflight/report.ts";

const L = (status: Line["status"], label: string, msg = "m"): Line => ({ status, label, msg });

test("PREFLIGHT_WAIVE: commas, spaces removed, duplicates dropped", () => {
  expect(parseWaivers(" bd , ctx,,bd ")).toEqual(["bd", "ctx"]);
  expect(parseWaivers(undefined)).toEqual([]);
});

test("waived FAILs do not block and are not essential gaps; unknown waivers are named", () => {
  const r = decide("orca", [L("INFO", "", "resolved Orca CLI: orca"), L("PASS", "orca"), L("FAIL", "bd", "no bd"), L("WARN", "ctx", "no ctx"), L("WARN", "gh-auth")], ["bd", "bdd"]);
  expect(r.verdict).toBe("READY WITH WAIVERS");
  expect(r.counts).toEqual({ pass: 1, warn: 2, fail: 0, waived: 1 });
  expect(r.unknownWaivers).toEqual(["bdd"]);
  expect(r.essentialGaps.map((g) => g.label)).toEqual(["ctx"]);
  expect(renderText(r)).toEqual([
    "INFO resolved Orca CLI: orca",
    "PASS orca           m",
    "WAIVED bd           no bd (downgraded from FAIL by PREFLIGHT_WAIVE)",
    "WARN ctx            no ctx",
    "WARN gh-auth        m",
    "",
    "Preflight summary",
    "  PASS: 1",
    "  WARN: 2",
    "  FAIL: 0",
    "  WAIVED: 1 (bd)",
    "  NOTE: PREFLIGHT_WAIVE named checks that did not run: bdd; those checks are still enforced",
    "  !! ESSENTIAL COMPONENTS MISSING (1) — the harness will not behave as documented",
    "  !!   ctx no ctx",
    "  !! These are not preferences. Install them, or expect the documented behaviour to be missing.",
    "  READY WITH WAIVERS: 1 required check(s) were downgraded, not satisfied",
  ]);
});

test("an unwaived FAIL blocks; a waiver of a passing check is neither a waiver nor a typo", () => {
  const r = decide("orca", [L("PASS", "orca"), L("FAIL", "gh")], ["orca"]);
  expect(r.verdict).toBe("BLOCKED");
  expect(r.unknownWaivers).toEqual([]);
  expect(r.counts.waived).toBe(0);
  expect(decide("orca", [L("PASS", "orca")], []).verdict).toBe("READY");
});
