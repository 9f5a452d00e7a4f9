/**
 * One simulated `orca` invocation: call log -> version/help -> parse -> unknown command -> faults -> flag
 * validation -> not-running check -> the command -> output. Returns the exit code; never exits the process.
 */
import { diagLine } from "../../../lib/line.ts";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Ctx } from "../../../lib/context.ts";
import { errorMessage } from "../../../lib/errors.ts";
import { checkFlags, parseOrcaArgv, unknownCommand } from "./argv.ts";
import type { Call, CommandTable } from "./call.ts";
import { CORE_COMMANDS, notRunningStatus } from "./core.ts";
import { runtimeUnavailable, SimError } from "./errors.ts";
import { applyFault } from "./fault-modes.ts";
import { FaultSpecError, takeFault } from "./faults.ts";
import { CHECK_COMMANDS } from "./orch-check.ts";
import { DISPATCH_COMMANDS } from "./orch-dispatch.ts";
import { RUN_COMMANDS } from "./orch-runs.ts";
import { TASK_UPDATE_COMMANDS } from "./orch-task-update.ts";
import { SEND_COMMANDS } from "./orch-send.ts";
import { ORCA_EXIT, printError, printSuccess } from "./output.ts";
import { seedState } from "./scenarios.ts";
import { Store } from "./store.ts";
import { TERMINAL_COMMANDS } from "./terminal.ts";

const DEFAULT_VERSION = "1.4.164";
/** How long a `late` answer takes (ORCA_SIM_HANG_MS overrides): far past any caller's timeout. */
const LATE_MS = 3_600_000;

/** Every command the simulator knows, keyed by command path; anything else is `Unknown command`. */
const COMMAND_TABLE: CommandTable = {
  ...CORE_COMMANDS,
  ...TERMINAL_COMMANDS,
  ...RUN_COMMANDS,
  ...TASK_UPDATE_COMMANDS,
  ...DISPATCH_COMMANDS,
  ...SEND_COMMANDS,
  ...CHECK_COMMANDS,
};

function helpText(path: string): string {
  const exact = COMMAND_TABLE[path];
  if (exact) return `Usage: ${exact.usage}\n`;
  const under = Object.entries(COMMAND_TABLE).filter(([k]) => !path || k === path || k.startsWith(`${path} `));
  // Aliases share a definition: list each usage once.
  const lines = [...new Set(under.map(([, d]) => `  ${d.usage}`))];
  return `Orca CLI (mogui simulator)\n\nCommands:\n${lines.join("\n")}\n${path ? "" : SIM_ENV_HELP}`;
}

/** The settings a newcomer needs to run mogui (mogui dispatch included) on the simulator (issue 26 §1); the whole
 * list, with the fault modes, is fixtures/scenarios/README.md in a clone. */
const SIM_ENV_HELP = `
Environment (the simulator's own; the real Orca has none of these):
  ORCA_SIM_STATE=<file>         the state file; unset = Orca is not running (every call fails runtime_unavailable)
  ORCA_SIM_SCENARIO=<name|file> seeds a missing state file: basic, settled, folder, empty, or a scenario JSON
  ORCA_SIM_ROOT=<dir>           replaces \${ROOT} in scenario paths (default: the state file's directory)
  ORCA_TERMINAL_HANDLE=<handle> the caller's terminal, as inside a real Orca terminal (implicit --from/--terminal)
  ORCA_SIM_CALL_LOG=<file>      one JSON line per call: {"argv","exit","ts"}
  ORCA_SIM_FAULT=<cmd=mode>     inject failures: exit, malformed, error_envelope, hang, late, legacy, ...

A whole dispatch on it (the basic scenario: a repo, a worktree wt-feature, the master's terminal with a bound Run):
  mogui sim install-shims "$MOGUI_HOME/bin" && export PATH="$MOGUI_HOME/bin:$PATH"
  export ORCA_SIM_STATE=$MOGUI_HOME/orca.json ORCA_SIM_SCENARIO=basic ORCA_SIM_ROOT=$MOGUI_HOME
  export ORCA_TERMINAL_HANDLE=term_11111111-2222-4333-8444-555555555555   # the master's terminal in basic
  mogui dispatch --contract c.md --spec "..." --runtime grok --model grok-4.5 --worktree "path:$MOGUI_HOME/wt-feature"
See docs/dispatch.md (walkthrough) and fixtures/scenarios/README.md (every variable and fault mode).
`;

/** Appends `{"argv","exit","ts"}` once per call; a hang logs `exit:null` before it starts sleeping. */
export class CallLog {
  private done = false;
  constructor(
    private readonly ctx: Ctx,
    private readonly argv: readonly string[],
  ) {}
  write(exit: number | null): void {
    const path = this.ctx.env.ORCA_SIM_CALL_LOG;
    if (this.done || !path) return;
    this.done = true;
    const abs = resolve(this.ctx.cwd, path);
    mkdirSync(dirname(abs), { recursive: true });
    appendFileSync(abs, `${JSON.stringify({ argv: this.argv, exit, ts: this.ctx.now() })}\n`);
  }
}

function openStore(ctx: Ctx): Store | null {
  const path = ctx.env.ORCA_SIM_STATE;
  if (!path) return null;
  const abs = resolve(ctx.cwd, path);
  return new Store(
    abs,
    () => seedState(ctx.env, ctx.cwd, abs, ctx.now()),
    () => ctx.now(),
  );
}

async function execute(ctx: Ctx, argv: readonly string[], log: CallLog): Promise<number> {
  if (argv[0] === "--version" || argv[0] === "-v") {
    const store = openStore(ctx);
    ctx.io.stdout(`${store ? store.read().appVersion : DEFAULT_VERSION}\n`);
    return ORCA_EXIT.OK;
  }
  const { path, flags } = parseOrcaArgv(argv);
  const json = flags.has("json");
  if (path[0] === "help" || flags.has("help") || path.length === 0) {
    ctx.io.stdout(helpText(path[0] === "help" ? path.slice(1).join(" ") : path.join(" ")));
    return ORCA_EXIT.OK;
  }
  const key = path.join(" ");
  const def = COMMAND_TABLE[key];
  const store = openStore(ctx);
  try {
    if (!def) throw unknownCommand(path, Object.keys(COMMAND_TABLE));
    const fault = takeFault(key, ctx.env, store);
    const early = fault ? await applyFault(ctx, fault, json, store, log) : undefined;
    if (early !== undefined) return early;
    const legacyShow = fault?.mode === "legacy" && key === "orchestration dispatch-show";
    checkFlags(key, flags, legacyShow ? [...def.flags, "dispatch"] : def.flags);
    if (!store) {
      if (key === "status") {
        printSuccess(ctx.io, json, notRunningStatus(), "none");
        return json ? ORCA_EXIT.OK : ORCA_EXIT.ERROR;
      }
      throw runtimeUnavailable();
    }
    const call: Call = { ctx, path: key, flags, json, store, fault, cwd: ctx.env.ORCA_CLI_CWD || ctx.cwd };
    const outcome = await def.run(call);
    // `late`: the command has acted (its state is written); the answer comes after the caller's timeout.
    if (fault?.mode === "late") await lateAnswer(ctx, log);
    if (fault?.mode === "legacy") {
      ctx.io.stdout(`${JSON.stringify(outcome.result, null, 2)}\n`);
      return outcome.exit ?? ORCA_EXIT.OK;
    }
    return printSuccess(ctx.io, json, outcome, store.runtimeId());
  } catch (e) {
    if (e instanceof SimError) return printError(ctx.io, json, e, e.local || !store ? null : safeRuntimeId(store));
    if (e instanceof FaultSpecError) {
      await simNote(ctx, e.message);
      return ORCA_EXIT.ERROR;
    }
    throw e;
  }
}

async function lateAnswer(ctx: Ctx, log: CallLog): Promise<void> {
  log.write(null);
  await Bun.sleep(Number(ctx.env.ORCA_SIM_HANG_MS) || LATE_MS);
}

function safeRuntimeId(store: Store): string | null {
  try {
    return store.runtimeId();
  } catch {
    return null;
  }
}

/** The simulator's own diagnostics (not the simulated program's bytes). */
const simNote = (ctx: Ctx, text: string) => diagLine(ctx, "orca simulator", text);

export async function runOrcaSim(ctx: Ctx, argv: readonly string[]): Promise<number> {
  const log = new CallLog(ctx, argv);
  let code: number;
  try {
    code = await execute(ctx, argv, log);
  } catch (e) {
    await simNote(ctx, `internal error: ${errorMessage(e)}`);
    code = ORCA_EXIT.ERROR;
  }
  log.write(code);
  return code;
}
