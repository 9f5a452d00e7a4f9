/**
 * The shape of one row of the lazy loader map. Each family (commands/<family>/index.ts) lists its rows and its
 * title; commands/index.ts merges them and gives every row its family's title as its help group, so a family, its
 * folder, its docs page and its help group are one vocabulary.
 */
import type { RegistryEntry } from "../src/lib/registry.ts";

export type FamilyTitle = "Dispatch" | "Workers" | "Fleet" | "Succession" | "Evidence" | "Publishing" | "Ops repository" | "Hooks" | "Developer";

/** A family's row: the group comes from the family. */
export type FamilyRow = Omit<RegistryEntry, "group">;

export interface CommandEntry extends RegistryEntry {
  group: FamilyTitle;
}
