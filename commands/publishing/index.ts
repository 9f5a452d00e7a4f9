/** The publish command family: boot measurement (model probes) and publish gates (redaction, preflight, version). */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { CommandEntry } from "../entry.ts";

export const commands = {
  "model-identity-probe": {
    summary: "One-line check that the last assistant turns ran on the expected model",
    group: "Publishing",
    load: () => import("./model-identity-probe.ts"),
  },
  "model-drift-audit": {
    summary: "Whole-session audit of model transitions in a transcript",
    group: "Publishing",
    load: () => import("./model-drift-audit.ts"),
  },
  "redaction-scan": {
    summary: "Fail-closed publish gate: scan for secrets and private identifiers (native engine, gitleaks rules)",
    group: "Publishing",
    load: () => import("./redaction-scan.ts"),
  },
  "next-version": {
    summary: "Print the next release tag (0.5.<commits on origin/main>)",
    group: "Publishing",
    load: () => import("./next-version.ts"),
  },
  "redaction-inventory": {
    summary: "Inverse audit: tokens that look private and no organisation rule covers",
    group: "Publishing",
    load: () => import("./redaction-inventory.ts"),
  },
  preflight: {
    summary: "Host readiness gate for onboarding: READY, READY WITH WAIVERS or BLOCKED",
    group: "Publishing",
    load: () => import("./preflight.ts"),
  },
} satisfies Record<string, CommandEntry>;

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
  "redaction-scan": [
    { code: 0, meaning: "clean: 0 findings" },
    { code: 1, meaning: "findings (printed masked on stderr; fail-closed)" },
    { code: 2, meaning: "cannot decide: bad usage, missing or invalid rules config, a rule RE2 rejects, retired allowlist entries, required org rules missing, unresolvable range, not a git repository, unreadable file, unreadable baseline, unwritable report path, internal error (--debug prints its stack), engine error, gitleaks missing with --engine gitleaks" },
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
};
