/**
 * The lazy loader map: `mogui --help` needs only these summaries, and running a command loads only its module,
 * which keeps start-up (and every hook call) cheap.
 */
import type { MoguiCommand } from "../src/lib/command.ts";

export interface CommandEntry {
  summary: string;
  group: "Workers" | "Dispatch" | "Succession" | "Evidence" | "Publishing" | "Ops repository" | "Help" | "Developer";
  hidden?: boolean;
  load: () => Promise<{ default: MoguiCommand }>;
}

export const COMMANDS = {
  "worker-reap": {
    summary: "Reap a settled worker: close its terminal, remove its worktree only when clean and merged",
    group: "Workers",
    load: () => import("./worker-reap.ts"),
  },
  demo: {
    summary: "Run worker-reap end to end against the built-in Orca simulator in a temp dir",
    group: "Help",
    load: () => import("./demo.ts"),
  },
  "sim orca": {
    summary: "The stateful Orca CLI simulator (what fixtures/bin/orca runs)",
    group: "Developer",
    load: () => import("./sim/orca.ts"),
  },
} satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

export function commandEntry(name: string): CommandEntry | undefined {
  return (COMMANDS as Record<string, CommandEntry>)[name];
}
