/** Hidden: `mogui master-succeed [--json] <subcommand> ...` (the subcommands are their own files beside this one). */
import { groupRouter } from "../../src/succession/route.ts";

export const SUBCOMMANDS = ["detect", "handoff", "verify-successor", "check-duplicates", "retire", "spawn"] as const;

export default groupRouter(
  "master-succeed",
  SUBCOMMANDS,
  "Master succession: detect a trigger, write the handoff, spawn and verify the successor, retire the predecessor.",
);
