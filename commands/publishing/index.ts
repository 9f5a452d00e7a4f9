/** The Publishing family (help group "Publishing"): its rows of the loader map (each command declares its own exits). */
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
