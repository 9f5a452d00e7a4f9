/**
 * `mogui sim herdr <herdr args...>`: the stateful herdr 0.8.x CLI simulator that fixtures/bin/herdr runs. It parses
 * its own argv like the real herdr, so mogui's parser never sees it.
 */
import { defineCommand } from "../../../src/lib/command.ts";
import { forward } from "../../../src/lib/exits.ts";
import { runHerdrSim } from "../../../src/developer/sim/herdr/run.ts";

export default defineCommand({
  meta: { name: "sim herdr", description: "Run the stateful herdr CLI simulator (0.8.x shapes) with the given herdr arguments" },
  usage: ["sim herdr <herdr args...>"],
  args: {},
  passthrough: true,
  exits: {
    ok: { code: 0, meaning: "the simulated call succeeded" },
    failed: { code: 1, meaning: "a server error like the real herdr (JSON envelope on stderr), or an injected fault" },
    usage: { code: 2, meaning: "a usage error in herdr's own words (plain text on stderr)" },
    injected: { code: "N", meaning: "an injected exit code" },
  },
  notes: [
    "State: HERDR_SIM_STATE (JSON file; unset = no herdr server running). Seed: HERDR_SIM_SCENARIO (a JSON file), ${ROOT} -> HERDR_SIM_ROOT.",
    "Faults: HERDR_SIM_FAULT='<command path>=<exit[:code]|malformed|error[:code]|hang|swallow>,...' or the state's `faults` array (with `times`).",
    "Call log: HERDR_SIM_CALL_LOG (one JSON line per call). Test-only `herdr fake output|agent-exit|flap|title|prompts` plays the agent's side.",
    "Input: raw `pane send-text` into an agent submits each line; `agent prompt` is one prompt. HERDR_SIM_SHELL_INIT=N: new panes answer `agent start` with agent_pane_busy N times.",
    "Details: fixtures/herdr/README.md.",
  ],
  examples: ["HERDR_SIM_STATE=/tmp/herdr.json mogui sim herdr workspace create --label workers", "HERDR_SIM_STATE=/tmp/herdr.json mogui sim herdr agent start fix-1 --kind claude --pane w1:p1"],
  async run({ ctx, args }) {
    // The simulator speaks herdr's exit codes, not mogui's: hand them through.
    return forward(await runHerdrSim(ctx, args._));
  },
});
