/** The Evidence family (help group "Evidence"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";

export const title = "Evidence";

export const commands = {
  "acceptance-loop validate": {
    summary: "Check an acceptance config and its case book; print the split counts",
    load: () => import("./acceptance-loop/validate.ts"),
  },
  "acceptance-loop split": {
    summary: "Write the verification split manifest (regressions applied) without running",
    load: () => import("./acceptance-loop/split.ts"),
  },
  "acceptance-loop run": {
    summary: "Run the deterministic acceptance loop: propose, evaluate, accept on a pass-count increase",
    load: () => import("./acceptance-loop/run.ts"),
  },
  "acceptance-loop inspect": {
    summary: "Print a finished acceptance run's report.json",
    load: () => import("./acceptance-loop/inspect.ts"),
  },
  "approval classify": {
    summary: "Print the approval gate class (G0-G3) of an action described by flags",
    load: () => import("./approval/classify.ts"),
  },
  "context resolve": {
    summary: "Resolve a path against a workspace manifest: folder, repo, worktree, nested repo",
    load: () => import("./context/resolve.ts"),
  },
  "workspace-descriptor-check": {
    summary: "Is an action prohibited for the repository at a path? (workspace descriptor, fail closed)",
    load: () => import("./workspace-descriptor-check.ts"),
  },
  "config schema": {
    summary: "Print the JSON Schema of an instance config file (generated from the loader's own schema)",
    load: () => import("./config/schema.ts"),
  },
  "config validate": {
    summary: "Validate an instance config file with the same loader the commands use",
    load: () => import("./config/validate.ts"),
  },
  "config init": {
    summary: "Write every instance config example into $MOGUI_HOME/config/ (never over an existing file)",
    load: () => import("./config/init.ts"),
  },
  "config example": {
    summary: "Print one file the binary carries: a config example, the brief template, the pre-push hook",
    load: () => import("./config/example.ts"),
  },
  "l1-digest tick": {
    summary: "One read-only observation tick: repo drift triage, job status, a markdown digest",
    load: () => import("./l1-digest/tick.ts"),
  },
  "adapter doctor": {
    summary: "Report which host tools are present: git, node, orca, bd, bun",
    load: () => import("./adapter/doctor.ts"),
  },
} satisfies Record<string, FamilyRow>;

const CONFIG_OR_USAGE = "usage error, or a config / case book problem (the message names the file)";

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "acceptance-loop validate": [
    { code: 0, meaning: "the config and the case book are valid (summary on stdout)" },
    { code: 2, meaning: CONFIG_OR_USAGE },
  ],
  "acceptance-loop split": [
    { code: 0, meaning: "split files written (path of split.json on stdout)" },
    { code: 2, meaning: `${CONFIG_OR_USAGE}; the output folder cannot be created or written` },
  ],
  "acceptance-loop run": [
    { code: 0, meaning: "the final gated scorecard is complete: every train and holdout case passes" },
    { code: 1, meaning: "the run ended with failing gated cases, or the restore command failed" },
    { code: 2, meaning: `${CONFIG_OR_USAGE}; --max-iterations >= 2 without --restore-cmd; the run folder cannot be created or written; the regression log is unwritable or has a corrupt line (LEDGER_UNAVAILABLE)` },
  ],
  "acceptance-loop inspect": [
    { code: 0, meaning: "report.json printed" },
    { code: 2, meaning: "usage error, or no report in the run dir" },
  ],
  "approval classify": [
    { code: 0, meaning: "the gate class was printed" },
    { code: 2, meaning: "usage error: --read-only combined with a write or --irreversible" },
  ],
  "context resolve": [
    { code: 0, meaning: "the path was resolved (missing declared repositories are warnings, not errors)" },
    { code: 2, meaning: "usage error, or the manifest is missing, unreadable or malformed" },
  ],
  "workspace-descriptor-check": [
    { code: 0, meaning: "allowed: the action is not prohibited for the matched repository" },
    { code: 1, meaning: "prohibited, or the path matches no declared repository (unless --allow-unknown-repo)" },
    { code: 2, meaning: "undecidable: no descriptor, an invalid descriptor, or a usage error" },
  ],
  "config schema": [
    { code: 0, meaning: "the JSON Schema was printed" },
    { code: 2, meaning: "usage error: unknown config name" },
  ],
  "config validate": [
    { code: 0, meaning: "the file is valid" },
    { code: 1, meaning: "the file is invalid (the reason on stderr)" },
    { code: 2, meaning: "usage error, or the file cannot be read" },
  ],
  "config init": [
    { code: 0, meaning: "every instance file written, or kept because it already existed (both listed)" },
    { code: 2, meaning: "usage error, or $MOGUI_HOME/config cannot be created or written" },
  ],
  "config example": [
    { code: 0, meaning: "the file was printed (or written with --out)" },
    { code: 1, meaning: "--out names a path that exists; left unchanged" },
    { code: 2, meaning: "usage error: unknown name; --out cannot be written" },
  ],
  "l1-digest tick": [
    { code: 0, meaning: "no unexplained repo drift (the digest on stdout)" },
    { code: 2, meaning: "usage error, or a config, baseline, I/O or JSON error" },
    { code: 4, meaning: "unexplained repo drift present" },
  ],
  "adapter doctor": [
    { code: 0, meaning: "the presence report was printed (whatever it found)" },
    { code: 2, meaning: "usage error: an unknown flag or argument" },
  ],
};
