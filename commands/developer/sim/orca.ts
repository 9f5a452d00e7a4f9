/**
 * `mogui sim orca <orca args...>`: the stateful Orca CLI simulator that fixtures/bin/orca (and its orca-dev /
 * orca-ide links) run. It parses its own argv like the real Orca CLI, so mogui's parser never sees it.
 */
import { defineCommand } from "../../../src/lib/command.ts";
import { forward } from "../../../src/lib/exits.ts";
import { runOrcaSim } from "../../../src/developer/sim/orca/run.ts";

export default defineCommand({
  meta: { name: "sim orca", description: "Run the stateful Orca CLI simulator with the given orca arguments" },
  usage: ["sim orca <orca args...>"],
  args: {},
  passthrough: true,
  exits: {
    ok: { code: 0, meaning: "the simulated call succeeded" },
    failed: { code: 1, meaning: "the simulated call failed like the real Orca CLI (error envelope), or an injected fault" },
    injected: { code: "N", meaning: "an injected exit code" },
  },
  notes: [
    "State: ORCA_SIM_STATE (JSON file; unset = Orca not running). Seed: ORCA_SIM_SCENARIO (file or built-in name: basic, settled, folder, empty), ${ROOT} -> ORCA_SIM_ROOT.",
    "Faults: ORCA_SIM_FAULT='<command path>=<mode>[:n][@N[+]],...' (modes: exit, malformed, error_envelope, hang, late, legacy, survive_close, close_noop, stale_handle, foreign_handle, swallow, not_accepted; @N = only the Nth call, @N+ = from it on) or the state's `faults` array; see fixtures/scenarios/README.md.",
    "Call log: ORCA_SIM_CALL_LOG (one JSON line per call: argv, exit, ts).",
  ],
  examples: ["ORCA_SIM_STATE=/tmp/orca.json ORCA_SIM_SCENARIO=basic mogui sim orca status --json", "ORCA_SIM_STATE=/tmp/orca.json mogui sim orca orchestration dispatch-show --task task_1a2b3c4d5e6f --json"],
  async run({ ctx, args }) {
    // The simulator speaks Orca's exit codes, not mogui's: hand them through.
    return forward(await runOrcaSim(ctx, args._));
  },
});
