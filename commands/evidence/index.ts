/** The Evidence family (help group "Evidence"): its rows of the loader map (every command declares its own exits). */
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
  "acceptance-loop": { summary: "The acceptance loop (group)", hidden: true, load: () => import("./acceptance-loop/index.ts") },
  "approval classify": {
    summary: "Print the approval gate class (G0-G3) of an action described by flags",
    load: () => import("./approval/classify.ts"),
  },
  approval: { summary: "Approval gates (group)", hidden: true, load: () => import("./approval/index.ts") },
  "context resolve": {
    summary: "Resolve a path against a workspace manifest: folder, repo, worktree, nested repo",
    load: () => import("./context/resolve.ts"),
  },
  context: { summary: "Workspace context (group)", hidden: true, load: () => import("./context/index.ts") },
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
  config: { summary: "Instance config files (group)", hidden: true, load: () => import("./config/index.ts") },
  "l1-digest tick": {
    summary: "One read-only observation tick: repo drift triage, job status, a markdown digest",
    load: () => import("./l1-digest/tick.ts"),
  },
  "l1-digest": { summary: "The L1 observation digest (group)", hidden: true, load: () => import("./l1-digest/index.ts") },
  "adapter doctor": {
    summary: "Report which host tools are present: git, node, orca, bd, bun",
    load: () => import("./adapter/doctor.ts"),
  },
  adapter: { summary: "Host adapter (group)", hidden: true, load: () => import("./adapter/index.ts") },
} satisfies Record<string, FamilyRow>;

// Every command of this family declares its own exits (D35); the table stays for the registry's shape.
