/** The shape of one row of the lazy loader map (commands/index.ts merges one map per command family). */
import type { MoguiCommand } from "../src/lib/command.ts";

export interface CommandEntry {
  summary: string;
  group: "Workers" | "Dispatch" | "Succession" | "Evidence" | "Publishing" | "Ops repository" | "Hooks" | "Help" | "Developer" | "Fleet";
  hidden?: boolean;
  load: () => Promise<{ default: MoguiCommand }>;
}
