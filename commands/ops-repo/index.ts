/** The Ops repository family (help group "Ops repository"): its rows of the loader map (each command declares its own exits). */
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
  template: { summary: "The ops-repository template (group)", hidden: true, load: () => import("./template/index.ts") },
  "onboarding-rehearsal": {
    summary: "Read-only postcondition table of a founded workspace (P01-P08, L01-L02)",
    load: () => import("./onboarding-rehearsal.ts"),
  },
  "harness-selfcheck": {
    summary: "The master's boot self-check: seat, skills, hooks, card, tracker, template",
    load: () => import("./harness-selfcheck.ts"),
  },
} satisfies Record<string, FamilyRow>;
