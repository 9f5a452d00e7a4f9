import { resolve } from "node:path";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc } from "../../src/lib/output.ts";
import { localDay } from "../../src/dispatch/workstream/workstream.ts";
import { mustPassOk, renderReport, writeReport } from "../../src/developer/spawn-test/spawn-report.ts";
import { requireOrca, runRuntime, SpawnAbort, type RuntimeResult, type Scenario, type SpawnConfig } from "../../src/developer/spawn-test/spawn-test.ts";

function list(raw: string | undefined, dflt: string): string[] {
  return (raw ?? dflt).split(/[\s,]+/).filter(Boolean);
}

const SCENARIOS: readonly Scenario[] = ["happy-path", "founding-guard"];
const isScenario = (s: string): s is Scenario => (SCENARIOS as readonly string[]).includes(s);

// An environment value, not a flag: the int parser of the args does not see it.
function positiveInt(ctx: { env: Record<string, string | undefined> }, name: string, dflt: number): number {
  const raw = ctx.env[name]?.trim();
  if (!raw) return dflt;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`${name} must be a positive whole number (got '${raw}')`, "spawn-test");
  return Number(raw);
}

export default defineCommand({
  meta: {
    name: "spawn-test",
    description: [
      "The real-agent onboarding harness. For each runtime: a sandbox ops folder, an Orca terminal running the",
      "agent, the kickoff prompt, then assertions. happy-path: A structure, B hook fire log, C orchestration",
      "round trip to the coordinator. founding-guard: D no spawn artifacts, E refusal language. Writes",
      "docs/reports/spawn-test-<date>.md; the must-pass runtimes are claude and codex.",
    ].join("\n"),
  },
  usage: ["spawn-test [happy-path|founding-guard] [--report-dir <path>] [--skeleton <path>] [--json]"],
  args: {
    scenario: { type: "positional", required: false, valueHint: "happy-path|founding-guard", description: "Which scenario (default happy-path)" },
    "report-dir": { type: "string", valueHint: "path", default: "docs/reports", description: "Where the report goes (relative to the cwd)" },
    skeleton: { type: "string", valueHint: "path", description: "Ops skeleton copied into each sandbox (default $SPAWN_TEST_SKELETON, else empty)" },
    json: { ...ARGS.json, description: "Print {scenario, report, must_pass_ok, results:[{runtime, status, assertions}]}" },
  },
  exits: {
    ok: { code: 0, meaning: "every must-pass runtime (claude, codex) passed; the report was written" },
    failed: { code: 1, meaning: "a must-pass runtime did not pass (or none ran); the report says which assertion failed" },
    usage: { code: 2, meaning: "usage error (scenario, SPAWN_TEST_* values); orca missing or not running" },
  },
  notes: [
    [
      "Environment: SPAWN_TEST_RUNTIMES (default 'claude codex grok agy cursor'), SPAWN_TEST_BLOCKED (default",
      "'agy cursor'), SPAWN_TEST_COORDINATOR_TERMINAL (needed for C), SPAWN_TEST_ROUND_TRIP_TIMEOUT_MS (90000),",
      "SPAWN_TEST_AGENT_RESPONSE_TIMEOUT_SECONDS (120), SPAWN_TEST_DRIVER (orca: the terminal runs the agent;",
      "process: mogui runs the agent CLI with the kickoff on stdin, for the simulator), SPAWN_TEST_KEEP=1 keeps",
      "the sandboxes.",
    ].join("\n"),
  ],
  examples: ["SPAWN_TEST_COORDINATOR_TERMINAL=$ORCA_TERMINAL_HANDLE mogui spawn-test happy-path", "mogui spawn-test founding-guard"],
  async run({ ctx, args, fail }) {
    const scenario = args.scenario ?? "happy-path";
    if (!isScenario(scenario)) throw new UsageError(`scenario must be happy-path or founding-guard (got '${scenario}')`, "spawn-test");
    const driver = ctx.env.SPAWN_TEST_DRIVER?.trim() || "orca";
    if (driver !== "orca" && driver !== "process") throw new UsageError(`SPAWN_TEST_DRIVER must be orca or process (got '${driver}')`, "spawn-test");
    const skeleton = args.skeleton ?? ctx.env.SPAWN_TEST_SKELETON?.trim();
    const cfg: SpawnConfig = {
      scenario,
      runtimes: list(ctx.env.SPAWN_TEST_RUNTIMES, "claude codex grok agy cursor"),
      blocked: list(ctx.env.SPAWN_TEST_BLOCKED, "agy cursor"),
      coordinator: ctx.env.SPAWN_TEST_COORDINATOR_TERMINAL?.trim() ?? "",
      roundTripMs: positiveInt(ctx, "SPAWN_TEST_ROUND_TRIP_TIMEOUT_MS", 90_000),
      responseMs: positiveInt(ctx, "SPAWN_TEST_AGENT_RESPONSE_TIMEOUT_SECONDS", 120) * 1000,
      driver,
      skeleton: skeleton ? resolve(ctx.cwd, skeleton) : undefined,
      keep: ctx.env.SPAWN_TEST_KEEP === "1",
    };
    const results: RuntimeResult[] = [];
    try {
      await requireOrca(ctx);
      for (const rt of cfg.runtimes) {
        const r = await runRuntime(ctx, cfg, rt);
        logger(ctx, "spawn-test").log(`${rt}: ${r.status}`);
        results.push(r);
      }
    } catch (e) {
      if (e instanceof SpawnAbort) return fail("usage", `spawn-test: ${e.message}`);
      throw e;
    }
    const date = localDay(new Date(ctx.now()));
    const report = writeReport(resolve(ctx.cwd, args["report-dir"]), date, renderReport(scenario, date, results));
    const ok = mustPassOk(results);
    if (args.json) printDoc(ctx, { must_pass_ok: ok, report, results, scenario }, true);
    else ctx.io.stdout(`${report}\n`);
    return ok ? "ok" : "failed";
  },
});
