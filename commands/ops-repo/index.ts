/** The Ops repository family (help group "Ops repository"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";

export const title = "Ops repository";

export const commands = {
  "generate-manifest": {
    summary: "Build (or --check) the template's MANIFEST.json: install paths plus frame hygiene",
    load: () => import("./generate-manifest.ts"),
  },
  "template check": {
    summary: "Compare an ops repository with the template: absent, unknown, version, adoption notes",
    load: () => import("./template/check.ts"),
  },
  "template apply": {
    summary: "Found or upgrade an ops repository from the template (plan first; typed confirmation to write)",
    load: () => import("./template/apply.ts"),
  },
  "template show": {
    summary: "Print a file of the embedded template (ONBOARDING.md, a stage file) or list its files",
    load: () => import("./template/show.ts"),
  },
  "onboarding-rehearsal": {
    summary: "Read-only postcondition table of a founded workspace (P01-P08, L01-L02)",
    load: () => import("./onboarding-rehearsal.ts"),
  },
  "harness-selfcheck": {
    summary: "The master's boot self-check: seat, skills, hooks, card, tracker, template",
    load: () => import("./harness-selfcheck.ts"),
  },
} satisfies Record<string, FamilyRow>;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "generate-manifest": [
    { code: 0, meaning: "manifest written, printed, or (--check) up to date" },
    { code: 1, meaning: "stale or missing manifest (--check), frame hygiene defect, TEMPLATE-VERSION unreadable or empty, output not a regular file" },
    { code: 2, meaning: "usage; the skeleton is not a directory" },
  ],
  "template check": [
    { code: 0, meaning: "current: no drift, installed version == template version" },
    { code: 1, meaning: "drift or behind: absent/unknown files, symlinks, unfilled {{PLACEHOLDER}} tokens, no MANIFEST.json, version differs (adoption notes listed)" },
    { code: 2, meaning: "could not check: ops root or template unreadable, malformed manifest, template VERSION or CHANGELOG unreadable (invalid UTF-8 included)" },
  ],
  "template apply": [
    { code: 0, meaning: "plan printed (dry run) or every planned file written" },
    { code: 1, meaning: "the plan has error-* entries (nothing written), --write would leave {{PLACEHOLDER}} tokens unfilled without --allow-unfilled (nothing written), or an --attempt path was refused" },
    { code: 2, meaning: "usage (unknown or malformed --placeholder); ops not a directory; overlapping roots; template, manifest or TEMPLATE-VERSION unreadable (invalid UTF-8 included); confirmation declined; write aborted" },
  ],
  "template show": [
    { code: 0, meaning: "file printed or files listed" },
    { code: 1, meaning: "no such template file" },
    { code: 2, meaning: "usage; template path unreadable" },
  ],
  "onboarding-rehearsal": [
    { code: 0, meaning: "every row PASS (needs --live; L02 is always GAP, so in practice read failures/gaps)" },
    { code: 1, meaning: "at least one row FAIL or GAP" },
    { code: 2, meaning: "usage: a root is not a directory; template unreadable" },
  ],
  "harness-selfcheck": [
    { code: 0, meaning: "every line fine" },
    { code: 1, meaning: "at least one line failed (undecided seat, MISSEATED, AMBIGUOUS, missing skill, unwired hook, card drift, tracker, template drift)" },
    { code: 2, meaning: "usage; workspace root or ops repo not a directory; .claude/settings.json unreadable" },
  ],
};
