/** The Hooks family (help group "Hooks"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
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
  "hook install": {
    summary: "Merge mogui's hook wiring into the host's settings JSON (never clobbers)",
    load: () => import("./hook/install.ts"),
  },
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

const ALWAYS_0 = (what: string): readonly ExitCodeRow[] => [
  { code: 0, meaning: what },
  { code: 2, meaning: "usage error (unknown flag)" },
];

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "hook product-path-guard": [
    { code: 0, meaning: "allowed (nothing is written into the product repo)" },
    { code: 2, meaning: "BLOCKED: '[product-path-guard] BLOCKED: <reason>' on stderr; also a missing or invalid product_repo, empty or unreadable stdin, input that is not a JSON object, or a usage error" },
  ],
  "hook role-state-inject": ALWAYS_0("always: the role-state line, or a WARNING line when role-state.md is unreadable"),
  "hook tracker-check": ALWAYS_0("always: the tracker line (OK or WARNING) and the protections line"),
  "hook orch-inbox-warn": ALWAYS_0("always: one line when unread mail waits; silent when empty or Orca is unreachable"),
  "hook bash-poll-warn": ALWAYS_0("always (a poll loop only prints a warning on stderr)"),
  "hook bash-output-trim-warn": ALWAYS_0("always (an unfiltered large-output command only prints a warning on stderr)"),
  "hook compaction-probe": ALWAYS_0("always: the probe JSON after a compaction, silence otherwise"),
  "hook install": [
    { code: 0, meaning: "wiring merged (or printed with --dry-run); unchanged hooks are reported as such" },
    { code: 2, meaning: "usage error; the settings file is not valid JSON, not an object, a symlink, or cannot be written (nothing changed)" },
  ],
  "hook-coverage-report": [
    { code: 0, meaning: "report printed (an absent fire log is an empty report)" },
    { code: 2, meaning: "usage error; the fire log is unreadable or has a corrupt line (named with its line number)" },
  ],
  "orca-wait": [
    { code: 0, meaning: "messages printed, or the wait timed out (a checkpoint, as in Orca)" },
    { code: 2, meaning: "usage error (unknown flag, bad --timeout-ms, or a --types entry that is not an Orca message type)" },
    { code: "N", meaning: "orca's own non-zero exit code when `orchestration check` fails (1 for an error envelope); 124 when orca did not answer within the wait plus 30 s; 127 when the orca executable was not found" },
  ],
  measure: [
    { code: 2, meaning: "usage error: no command named, bad --timeout-ms (also a command that itself exits 2)" },
    { code: "N", meaning: "the measured command's own exit status, printed first as exit=N; 124 when it timed out, 127 when it was not found" },
  ],
  "measure-product-path-guard": [
    { code: 0, meaning: "figures printed (N/A when there were no observations)" },
    { code: 2, meaning: "usage error; the event log is unreadable or has a corrupt line" },
  ],
  "orca-surface-check": [
    { code: 0, meaning: "unchanged (or --write-baseline recorded the surface)" },
    { code: 1, meaning: "drift: one [orca-surface] DRIFT line per change on stderr" },
    { code: 2, meaning: "unmeasurable: orca missing, failing or not running; baseline missing or malformed; usage error" },
  ],
};
