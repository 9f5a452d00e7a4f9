/** End-to-end cases for the gate family: one row per command (keyed by the family's command names). */
import type { commands } from "../../../commands/families/gate.ts";
import type { Case } from "./types.ts";

export const cases: Record<keyof typeof commands, Case> = {};
