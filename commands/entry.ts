/** The shape of one row of the lazy loader map (commands/index.ts merges one map per command family). */
import type { RegistryEntry } from "../src/lib/registry.ts";

export interface CommandEntry extends RegistryEntry {
  group: "Workers" | "Dispatch" | "Succession" | "Evidence" | "Publishing" | "Ops repository" | "Hooks" | "Help" | "Developer" | "Fleet";
}
