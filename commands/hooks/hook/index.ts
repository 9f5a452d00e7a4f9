/** `mogui hook <name>`: the host hooks (each reads the host's hook JSON on stdin) and `hook install`. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "hook", description: "The host hooks mogui provides (each reads the host's hook JSON on stdin), and their installer." },
  exits: GROUP_EXITS,
  subCommands: {
    "product-path-guard": () => import("./product-path-guard.ts").then((m) => m.default),
    "role-state-inject": () => import("./role-state-inject.ts").then((m) => m.default),
    "tracker-check": () => import("./tracker-check.ts").then((m) => m.default),
    "orch-inbox-warn": () => import("./orch-inbox-warn.ts").then((m) => m.default),
    "bash-poll-warn": () => import("./bash-poll-warn.ts").then((m) => m.default),
    "bash-output-trim-warn": () => import("./bash-output-trim-warn.ts").then((m) => m.default),
    "compaction-probe": () => import("./compaction-probe.ts").then((m) => m.default),
    "spend-brake": () => import("./spend-brake.ts").then((m) => m.default),
    install: () => import("./install.ts").then((m) => m.default),
  },
  examples: ["mogui hook install --host claude --dry-run"],
});
