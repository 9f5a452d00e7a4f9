/**
 * One simulated `herdr` invocation (0.8.x, docs/herdr-cli.md): top-level flags -> group help -> parse -> faults ->
 * server check -> the command -> output. Success: one compact JSON line with sorted keys on stdout, exit 0 (reads
 * print raw text; send-text/send-keys/run/report-agent print nothing). Server errors: a JSON envelope on stderr,
 * exit 1. Usage errors: plain text on stderr, exit 2.
 */
import { diagLine } from "../../../lib/line.ts";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Ctx } from "../../../lib/context.ts";
import { errorMessage } from "../../../lib/errors.ts";
import { sortedJson } from "../../../lib/output.ts";
import { HerdrUsage, parse } from "./argv.ts";
import type { CommandDef } from "./call.ts";
import { AGENT_COMMANDS } from "./cmd-agent.ts";
import { PANE_COMMANDS } from "./cmd-pane.ts";
import { METADATA_COMMANDS } from "./cmd-metadata.ts";
import { TOPOLOGY_COMMANDS } from "./cmd-topology.ts";
import { FaultSpecError, takeFault } from "./faults.ts";
import { HerdrSimError, SIM_VERSION, Store } from "./store.ts";

const HERDR_COMMANDS: Record<string, CommandDef> = { ...AGENT_COMMANDS, ...PANE_COMMANDS, ...TOPOLOGY_COMMANDS, ...METADATA_COMMANDS };

const SKILL = `---
name: herdr
description: drive herdr panes and agents from the CLI (mogui simulator stand-in)
---
# herdr (simulated)
Check HERDR_ENV=1. Ids look like w1, w1:t1, w1:p1.
Start an agent in an existing pane: herdr agent start <name> --kind K --pane ID.
CLI server errors are JSON on stderr with exit status 1. CLI syntax errors exit with status 2.
`;

function groupHelp(group: string): string {
  const lines = Object.entries(HERDR_COMMANDS)
    .filter(([k]) => k.startsWith(`${group} `))
    .map(([, d]) => `  ${d.spec.usage.replace(/^herdr /, "")}`);
  return `herdr ${group} commands:\n${lines.join("\n")}\n`;
}

function requestId(path: string): string {
  return `cli:${path.replace(" ", ":")}`;
}

function socketPath(ctx: Ctx): string {
  return ctx.env.HERDR_SOCKET_PATH || join(ctx.env.HOME || "~", ".config", "herdr", "herdr.sock");
}

function logCall(ctx: Ctx, argv: readonly string[], exit: number | null): void {
  const path = ctx.env.HERDR_SIM_CALL_LOG;
  if (!path) return;
  const abs = resolve(ctx.cwd, path);
  mkdirSync(dirname(abs), { recursive: true });
  appendFileSync(abs, `${JSON.stringify({ argv, exit, ts: ctx.now() })}\n`);
}

/** The real herdr's exit codes (what the simulator hands back through `mogui sim herdr`). */
const HERDR_EXIT = { OK: 0, ERROR: 1, USAGE: 2 } as const;

function printError(ctx: Ctx, id: string, e: HerdrSimError): number {
  // The real herdr's stderr bytes (what the adapter parses), written as is.
  // Some value-parse failures escape from main as a Rust io::Error, not as JSON (docs/herdr-cli.md §2).
  if (e.code === "io") ctx.io.stderr(`Error: Custom { kind: Other, error: ${JSON.stringify(e.message)} }\n`);
  else ctx.io.stderr(`${sortedJson({ error: { code: e.code, message: e.message }, id })}\n`);
  return HERDR_EXIT.ERROR;
}

async function execute(ctx: Ctx, argv: readonly string[]): Promise<number> {
  const [group, sub] = argv;
  if (group === undefined) {
    await simNote(ctx, "the TUI is not simulated; run a subcommand (herdr --help)");
    return HERDR_EXIT.USAGE;
  }
  if (group === "--version" || group === "-V") return (void ctx.io.stdout(`herdr ${SIM_VERSION}\n`), HERDR_EXIT.OK);
  if (group === "--skill") return (void ctx.io.stdout(SKILL), HERDR_EXIT.OK);
  if (group === "--help" || group === "-h" || group === "help") {
    ctx.io.stdout(`herdr (mogui simulator)\n\n${[...new Set(Object.keys(HERDR_COMMANDS).map((k) => k.split(" ")[0]!))].map(groupHelp).join("\n")}`);
    return HERDR_EXIT.OK;
  }
  const groups = new Set(Object.keys(HERDR_COMMANDS).map((k) => k.split(" ")[0]));
  if (!groups.has(group)) {
    // The real herdr's usage text, as is.
    ctx.io.stderr(`unknown option: ${group}\nrun 'herdr --help' for usage\n`);
    return HERDR_EXIT.USAGE;
  }
  if (sub === "help" || sub === "--help" || sub === "-h") return (void ctx.io.stdout(groupHelp(group)), HERDR_EXIT.OK);
  const path = `${group} ${sub ?? ""}`;
  const def = HERDR_COMMANDS[path];
  if (!def) {
    // herdr's own group help on stderr, as is.
    ctx.io.stderr(groupHelp(group));
    return HERDR_EXIT.USAGE;
  }
  const id = requestId(path);
  const statePath = ctx.env.HERDR_SIM_STATE ? resolve(ctx.cwd, ctx.env.HERDR_SIM_STATE) : undefined;
  const store = statePath ? new Store(statePath, ctx.env, ctx.cwd, () => ctx.now()) : null;
  try {
    const args = parse(def.spec, argv.slice(2));
    const fault = takeFault(path, ctx.env, store);
    // An injected fault and herdr's usage errors stand in for the real herdr's stderr: written as is.
    if (fault?.mode === "exit") return (void ctx.io.stderr("herdr: injected failure\n"), Number(fault.arg ?? HERDR_EXIT.ERROR));
    if (fault?.mode === "malformed") return (void ctx.io.stdout(`{"id":"${id}","result":{\n`), HERDR_EXIT.OK);
    if (fault?.mode === "error") throw new HerdrSimError(fault.arg ?? "internal_error", "injected failure");
    if (fault?.mode === "hang") {
      logCall(ctx, argv, null);
      await Bun.sleep(Number(ctx.env.HERDR_SIM_HANG_MS) || 3_600_000);
      return HERDR_EXIT.ERROR;
    }
    if (!store) throw new HerdrSimError("server_not_running", `no herdr server is running at ${socketPath(ctx)}; run \`herdr\` to start or attach it`);
    const out = await def.run({ ctx, id, args, store, fault });
    if ("text" in out) ctx.io.stdout(out.text);
    else if ("result" in out) ctx.io.stdout(`${sortedJson({ id, result: out.result })}\n`);
    return HERDR_EXIT.OK;
  } catch (e) {
    if (e instanceof HerdrUsage) return (void ctx.io.stderr(`${e.message}\n`), HERDR_EXIT.USAGE);
    if (e instanceof HerdrSimError) return printError(ctx, id, e);
    if (e instanceof FaultSpecError) return (await simNote(ctx, e.message), HERDR_EXIT.ERROR);
    throw e;
  }
}

/** The simulator's own diagnostics (not the simulated program's bytes). */
const simNote = (ctx: Ctx, text: string) => diagLine(ctx, "herdr simulator", text);

export async function runHerdrSim(ctx: Ctx, argv: readonly string[]): Promise<number> {
  let code: number;
  try {
    code = await execute(ctx, argv);
  } catch (e) {
    await simNote(ctx, `internal error: ${errorMessage(e)}`);
    code = HERDR_EXIT.ERROR;
  }
  logCall(ctx, argv, code);
  return code;
}
