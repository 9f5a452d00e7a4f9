/** The core family: the reaper, the demo and the simulator (the foundation issue). */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { CommandEntry } from "../entry.ts";

export const commands = {
  "worker-reap": {
    summary: "Reap a settled worker: close its terminal, remove its worktree only when clean and merged",
    group: "Workers",
    load: () => import("../workers/worker-reap.ts"),
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
  "sim install-shims": {
    summary: "Write orca/herdr shims that run this binary's simulators (for PATH)",
    group: "Developer",
    load: () => import("./sim/install-shims.ts"),
  },
} satisfies Record<string, CommandEntry>;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  demo: [
    { code: 0, meaning: "every demo step behaved as documented" },
    { code: 1, meaning: "a step did not (the failing step is named on stderr)" },
    { code: 2, meaning: "usage error: an unknown flag or argument" },
  ],
  "sim install-shims": [
    { code: 0, meaning: "every shim written, or kept because it already existed (both listed)" },
    { code: 2, meaning: "usage error, or <dir> cannot be created or written" },
  ],
};
