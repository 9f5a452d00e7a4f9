/** The Succession family (help group "Succession"): its rows of the loader map (each command declares its own exits). */
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

// Every command of this family declares its own exits (D35); the table stays for the registry's shape.
