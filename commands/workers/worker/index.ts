/** `mogui worker <subcommand>`: the worker-job group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "worker", description: "Worker jobs: classify the surface, lint the brief, spawn, verify, decide, collect, sweep." },
  exits: GROUP_EXITS,
  subCommands: {
    classify: () => import("./classify.ts").then((m) => m.default),
    "brief-lint": () => import("./brief-lint.ts").then((m) => m.default),
    spawn: () => import("./spawn.ts").then((m) => m.default),
    "verify-push": () => import("./verify-push.ts").then((m) => m.default),
    verdict: () => import("./verdict.ts").then((m) => m.default),
    decide: () => import("./decide.ts").then((m) => m.default),
    collect: () => import("./collect.ts").then((m) => m.default),
    sweep: () => import("./sweep.ts").then((m) => m.default),
    status: () => import("./status.ts").then((m) => m.default),
    reps: () => import("./reps/index.ts").then((m) => m.default),
  },
  examples: ["mogui worker --help", "mogui worker status --owner orch-a"],
});
