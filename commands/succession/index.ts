/** The Succession family (help group "Succession"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";

export const title = "Succession";

export const commands = {
  "master-succeed detect": { summary: "Classify a succession trigger: IMMEDIATE, ADVISORY or NONE (never spawns)", load: () => import("./master-succeed/detect.ts") },
  "master-succeed handoff": { summary: "Render the thin succession handoff (frozen Role State) from a JSON spec", load: () => import("./master-succeed/handoff.ts") },
  "master-succeed verify-successor": { summary: "Grade a successor's recovery report: PASS, PARTIAL or FAILED", load: () => import("./master-succeed/verify-successor.ts") },
  "master-succeed check-duplicates": { summary: "List other Orca terminals carrying this session's marker", load: () => import("./master-succeed/check-duplicates.ts") },
  "master-succeed retire": { summary: "Retire the predecessor: close its terminal and prove pane, process and tty are gone", load: () => import("./master-succeed/retire.ts") },
  "master-succeed spawn": { summary: "Spawn the successor master fail-closed: placement, liveness, owned-only cleanup", load: () => import("./master-succeed/spawn.ts") },
  "master-succeed": { summary: "Master succession (group)", hidden: true, load: () => import("./master-succeed/index.ts") },
  "master-bootstrap": { summary: "Boot measurement: charter + handoff in a budget, Role State, dual-instance", load: () => import("./master-bootstrap.ts") },
  "master-bootstrap-live": { summary: "SessionStart hook: the bounded boot block; fail-open, always exit 0", load: () => import("./master-bootstrap-live.ts") },
  "master-recover": { summary: "Recovery Flow 0-6 for a successor, read-only", load: () => import("./master-recover.ts") },
  "lineage append": { summary: "Append a verified generation to MASTER-LINEAGE.md", load: () => import("./lineage/append.ts") },
  "lineage show": { summary: "Parse MASTER-LINEAGE.md back into generations", load: () => import("./lineage/show.ts") },
  lineage: { summary: "The master lineage ledger (group)", hidden: true, load: () => import("./lineage/index.ts") },
  "tracks register": { summary: "Register a work track in the work ledger", load: () => import("./tracks/register.ts") },
  "tracks update": { summary: "Set a work track's status and note", load: () => import("./tracks/update.ts") },
  "tracks close": { summary: "Close a work track with its resolution", load: () => import("./tracks/close.ts") },
  "tracks list": { summary: "List the work ledger's tracks", load: () => import("./tracks/list.ts") },
  tracks: { summary: "The work ledger of tracks (group)", hidden: true, load: () => import("./tracks/index.ts") },
} satisfies Record<string, FamilyRow>;

const USAGE = { code: 2, meaning: "usage: unknown flag, missing or conflicting flags, a malformed value" } as const;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "master-succeed detect": [{ code: 0, meaning: "classified (the status is in the JSON)" }, USAGE],
  "master-succeed handoff": [{ code: 0, meaning: "handoff rendered" }, { code: 2, meaning: "usage; spec unreadable, not a JSON object, missing or unknown role" }],
  "master-succeed verify-successor": [{ code: 0, meaning: "graded (PASS, PARTIAL or FAILED is in the JSON)" }, { code: 2, meaning: "usage; report unreadable or not a JSON object" }],
  "master-succeed check-duplicates": [{ code: 0, meaning: "listed (possibly none)" }, { code: 2, meaning: "usage; orca terminal list failed or printed unusable JSON" }],
  "master-succeed retire": [
    { code: 0, meaning: "DRY_RUN, CLOSED or CLOSED_PARTIAL" },
    { code: 2, meaning: "usage; self matched as a candidate; bad --target-pid; orca terminal list failed" },
    { code: 3, meaning: "REFUSED: no or several candidates, close failed, or pane/process/tty still present (D20)" },
  ],
  "master-succeed spawn": [
    { code: 0, meaning: "DRY_RUN, or CREATED and verified (MATCH or MATCH_REISSUED)" },
    { code: 2, meaning: "usage; a required value empty; --model missing for an agent without a default" },
    { code: 20, meaning: "SPAWN_CREATE_ERROR: orca terminal create failed or answered ok:false" },
    { code: 21, meaning: "SPAWN_PARSE_ERROR: the create reply lacks JSON, the terminal, its handle or worktreeId" },
    { code: 22, meaning: "SPAWN_WORKTREE_MISMATCH: the terminal is not in the requested worktree" },
    { code: 23, meaning: "SPAWN_CLOSE_ERROR: closing the terminal it created failed" },
    { code: 24, meaning: "SPAWN_HANDLE_STALE: reported handle not live, no unique titled replacement (nothing closed)" },
    { code: 25, meaning: "SPAWN_LIST_ERROR: the scoped pre-snapshot or liveness list failed" },
    { code: 26, meaning: "SPAWN_PLACEMENT_MISMATCH: the terminal is not where --expected-placement says" },
  ],
  "master-bootstrap": [{ code: 0, meaning: "measured" }, { code: 2, meaning: "usage; charter missing; invalid Role State; DUAL_INSTANCE with --strict-lease" }],
  "master-bootstrap-live": [
    { code: 0, meaning: "the block was printed, or one [BOOTSTRAP-FALLBACK] line (fail-open)" },
    { code: 2, meaning: "usage only (e.g. --handoff-dir missing)" },
  ],
  "master-recover": [{ code: 0, meaning: "report printed, whatever the step statuses" }, USAGE],
};
