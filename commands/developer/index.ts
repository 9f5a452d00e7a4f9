/** The Developer family (help group "Developer"): its rows of the loader map (each command declares its own exits). */
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
  sim: { summary: "The Orca and herdr simulators (group)", hidden: true, load: () => import("./sim/index.ts") },
  mcp: {
    summary: "Serve the commands as MCP tools over stdio (typed, safety hints, confirmed destructive calls)",
    load: () => import("./mcp.ts"),
  },
  "test-tool-naming": {
    summary: "Lint docs/ and skills/ for retired ctx.* tool names",
    load: () => import("./test-tool-naming.ts"),
  },
  "spawn-test": {
    summary: "Real-agent onboarding harness: spawn agents in Orca terminals and check what they did",
    load: () => import("./spawn-test.ts"),
  },
} satisfies Record<string, FamilyRow>;

// Every command of the family declares its own `exits` beside its definition.
