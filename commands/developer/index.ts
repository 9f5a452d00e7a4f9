/** The Developer family (help group "Developer"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";

export const title = "Developer";

export const commands = {
  demo: {
    summary: "Run worker-reap end to end against the built-in Orca simulator in a temp dir",
    load: () => import("./demo.ts"),
  },
  "sim orca": {
    summary: "The stateful Orca CLI simulator (what fixtures/bin/orca runs)",
    load: () => import("./sim/orca.ts"),
  },
  "sim install-shims": {
    summary: "Write orca/herdr shims that run this binary's simulators (for PATH)",
    load: () => import("./sim/install-shims.ts"),
  },
  "sim herdr": { summary: "The stateful herdr CLI simulator (what fixtures/bin/herdr runs)", load: () => import("./sim/herdr.ts") },
  "test-tool-naming": {
    summary: "Lint docs/ and skills/ for retired ctx.* tool names",
    load: () => import("./test-tool-naming.ts"),
  },
  "spawn-test": {
    summary: "Real-agent onboarding harness: spawn agents in Orca terminals and check what they did",
    load: () => import("./spawn-test.ts"),
  },
} satisfies Record<string, FamilyRow>;

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
  "sim herdr": [
    { code: 0, meaning: "the simulated call succeeded" },
    { code: 1, meaning: "a server error like the real herdr (JSON envelope on stderr), or an injected fault" },
    { code: 2, meaning: "a usage error in herdr's own words (plain text on stderr)" },
    { code: "N", meaning: "an injected exit code" },
  ],
  "test-tool-naming": [
    { code: 0, meaning: "no retired tool name (or --self-test passed)" },
    { code: 1, meaning: "findings: path:line: name per line" },
    { code: 2, meaning: "usage error, or --self-test failed" },
  ],
  "spawn-test": [
    { code: 0, meaning: "every must-pass runtime (claude, codex) passed; the report was written" },
    { code: 1, meaning: "a must-pass runtime did not pass (or none ran); the report says which assertion failed" },
    { code: 2, meaning: "usage error (scenario, SPAWN_TEST_* values); orca missing or not running" },
  ],
};
