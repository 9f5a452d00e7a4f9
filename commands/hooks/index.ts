/** The Hooks family (help group "Hooks"): its rows of the loader map. */
import type { FamilyRow } from "../entry.ts";

export const title = "Hooks";

export const commands = {
  "hook product-path-guard": {
    summary: "PreToolUse hook: block file-tool and Bash writes into the product repository",
    load: () => import("./hook/product-path-guard.ts"),
  },
  "hook role-state-inject": {
    summary: "UserPromptSubmit/SessionStart hook: one line of role state and the execution rule",
    load: () => import("./hook/role-state-inject.ts"),
  },
  "hook tracker-check": {
    summary: "SessionStart hook: the tracker resolves to <ops>/.beads; active protections",
    load: () => import("./hook/tracker-check.ts"),
  },
  "hook orch-inbox-warn": {
    summary: "UserPromptSubmit hook: unread Orca coordinator mail (peek, read-only)",
    load: () => import("./hook/orch-inbox-warn.ts"),
  },
  "hook bash-poll-warn": {
    summary: "PreToolUse hook: warn about hand-rolled poll loops (use orca-wait)",
    load: () => import("./hook/bash-poll-warn.ts"),
  },
  "hook bash-output-trim-warn": {
    summary: "PreToolUse hook: warn about unfiltered large-output commands",
    load: () => import("./hook/bash-output-trim-warn.ts"),
  },
  "hook compaction-probe": {
    summary: "SessionStart(compact) hook: the R1..R4 recall probe after a compaction",
    load: () => import("./hook/compaction-probe.ts"),
  },
  "hook secret-alert": {
    summary: "PostToolUse hook: a secret in a tool result is reported masked, masked in the output, and logged",
    load: () => import("./hook/secret-alert.ts"),
  },
  "hook spend-brake": {
    summary: "PreToolUse hook in a worker's session: warn at 80% of the job's token cap, deny every tool call past it",
    load: () => import("./hook/spend-brake.ts"),
  },
  "hook install": {
    summary: "Merge mogui's hook wiring into the host's settings JSON (never clobbers)",
    load: () => import("./hook/install.ts"),
  },
  "sandbox run": {
    summary: "Run a command with paths read-only at the kernel level (bubblewrap, sandbox-exec)",
    load: () => import("./sandbox/run.ts"),
  },
  "sandbox check": {
    summary: "Prove the sandbox mechanism with a probe write; say which one is used",
    load: () => import("./sandbox/check.ts"),
  },
  sandbox: { summary: "Kernel-enforced read-only paths for a command or a whole session (group)", hidden: true, load: () => import("./sandbox/index.ts") },
  "hook doctor": {
    summary: "Which product-protection layers a Claude Code settings file turns on (exit 1 unless the sandbox is)",
    load: () => import("./hook/doctor.ts"),
  },
  hook: { summary: "The host hooks mogui provides, and their installer (group)", hidden: true, load: () => import("./hook/index.ts") },
  "hook-coverage-report": {
    summary: "Hook fire log as a hook x runtime|session matrix; hooks that never fired",
    load: () => import("./hook-coverage-report.ts"),
  },
  "orca-wait": {
    summary: "Wait for Orca orchestration messages: drain the unread backlog, else block for the next",
    load: () => import("./orca-wait.ts"),
  },
  measure: {
    summary: "Run a command; print exit=<status> then its output; exit with its status",
    load: () => import("./measure.ts"),
  },
  "measure-product-path-guard": {
    summary: "product-path-guard's Bash rejection rate from the event log",
    load: () => import("./measure-product-path-guard.ts"),
  },
  "orca-surface-check": {
    summary: "Compare the Orca CLI surface with a recorded baseline (drift = exit 1)",
    load: () => import("./orca-surface-check.ts"),
  },
} satisfies Record<string, FamilyRow>;

/** Every command of the family declares its exits beside its definition (docs/contributing.md). */
