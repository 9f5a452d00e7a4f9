/** The Publishing family (help group "Publishing"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";

export const title = "Publishing";

export const commands = {
  "model-identity-probe": {
    summary: "One-line check that the last assistant turns ran on the expected model",
    load: () => import("./model-identity-probe.ts"),
  },
  "model-drift-audit": {
    summary: "Whole-session audit of model transitions in a transcript",
    load: () => import("./model-drift-audit.ts"),
  },
  "redaction-scan": {
    summary: "Fail-closed publish gate: scan for secrets and private identifiers (native engine, gitleaks rules)",
    load: () => import("./redaction-scan.ts"),
  },
  "next-version": {
    summary: "Print the next release tag (0.5.<commits on origin/main>)",
    load: () => import("./next-version.ts"),
  },
  "redaction-inventory": {
    summary: "Inverse audit: tokens that look private and no organisation rule covers",
    load: () => import("./redaction-inventory.ts"),
  },
  preflight: {
    summary: "Host readiness gate for onboarding: READY, READY WITH WAIVERS or BLOCKED",
    load: () => import("./preflight.ts"),
  },
  "pr-body-check": {
    summary: "A PR description fills Problem / Why / What / Expected effect, without home paths",
    load: () => import("./pr-body-check.ts"),
  },
  "pr-steward-status": {
    summary: "Is a PR ready: checks, review threads, mergeability, gates (gh + GraphQL)",
    load: () => import("./pr-steward-status.ts"),
  },
  "conversation-redaction-scan": {
    summary: "Scan PR and issue conversations for local home paths (never prints the value)",
    load: () => import("./conversation-redaction-scan.ts"),
  },
} satisfies Record<string, FamilyRow>;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "model-identity-probe": [
    { code: 0, meaning: "MODEL-PROBE OK (every sampled turn is the expected model) or INFO (no expectation supplied)" },
    { code: 2, meaning: "MODEL-PROBE DRIFT: another model, an invalid --limit, unconfigured, transcript error, unsupported format, or undecidable (no real model); usage error" },
  ],
  "model-drift-audit": [
    { code: 0, meaning: "no transition and no mismatch with --expect" },
    { code: 1, meaning: "a model transition, or a real model other than --expect" },
    { code: 2, meaning: "undecidable: no transcript, unreadable, unsupported format, zero assistant turns, no real model; usage error" },
  ],
  "next-version": [
    { code: 0, meaning: "printed the next version" },
    { code: 2, meaning: "origin/main unavailable, shallow clone, not a git repository; usage error" },
  ],
  "redaction-inventory": [
    { code: 0, meaning: "no uncovered candidates" },
    { code: 1, meaning: "uncovered candidates listed (the normal triage state)" },
    { code: 2, meaning: "cannot decide: REDACTION_EXTRA_PATTERNS unset or missing, no usable rule, not a git repository, no tracked files; usage error" },
  ],
  preflight: [
    { code: 0, meaning: "READY, or READY WITH WAIVERS (PREFLIGHT_WAIVE downgraded some FAILs)" },
    { code: 1, meaning: "BLOCKED: at least one check FAILed and was not waived" },
    { code: 2, meaning: "usage error" },
  ],
  "pr-body-check": [
    { code: 0, meaning: "every section filled and no home path" },
    { code: 1, meaning: "a section is missing, empty or unmodified template guidance, or a home path was found" },
    { code: 2, meaning: "usage error; gh missing or not authenticated; the PR or a file could not be read" },
  ],
  "pr-steward-status": [
    { code: 0, meaning: "READY (unreachable today: the gates condition is never visible from the API)" },
    { code: 1, meaning: "NOT READY: at least one condition is not met or unverified" },
    { code: 2, meaning: "usage error; gh missing or not authenticated; the repository or PR could not be read" },
  ],
  "conversation-redaction-scan": [
    { code: 0, meaning: "no home path in the scanned conversations" },
    { code: 1, meaning: "violations found (surface|number|author|locator|pattern per line, never the value)" },
    { code: 2, meaning: "usage error (no or bad repository, bad --limit); gh missing, not authenticated, or an API call failed" },
  ],
};
