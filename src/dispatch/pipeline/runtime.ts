/**
 * Runtimes for `mogui dispatch` (reference §4.2/§4.3): which agent CLIs are installed, the default worker runtime,
 * the launch command typed into a new terminal, and the master host runtime with where it came from.
 */
import type { Ctx } from "../../lib/context.ts";
import { loadInstanceConfig } from "../../lib/config/instance.ts";

/** In preference order: the default worker runtime is the first installed one that is not the master's host. */
const RUNTIME_CANDIDATES = ["claude", "codex", "cursor", "grok", "gemini", "opencode"] as const;

/** The executable that proves a runtime is installed (the one its launch command starts). */
function runtimeExecutable(runtime: string): string {
  return runtime === "cursor" ? "cursor-agent" : runtime;
}

export function installedRuntimes(ctx: Pick<Ctx, "env" | "cwd">, which = (exe: string) => Bun.which(exe, { PATH: ctx.env.PATH ?? "", cwd: ctx.cwd }) !== null): string[] {
  return RUNTIME_CANDIDATES.filter((r) => which(runtimeExecutable(r)));
}

export function defaultRuntime(installed: readonly string[], masterHost: string): string {
  return installed.find((r) => r !== masterHost) ?? masterHost;
}

/** POSIX shell quoting (Python's shlex.quote): safe words stay bare, anything else is single-quoted. */
export function shellQuote(s: string): string {
  if (s !== "" && /^[A-Za-z0-9@%+=:,./_-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

/** §4.3: the command a new terminal runs for this runtime (the model shell-quoted). */
export function runtimeCommand(runtime: string, model: string): string {
  const m = shellQuote(model);
  switch (runtime) {
    case "claude":
      return `claude --model ${m} --dangerously-skip-permissions`;
    case "grok":
      return `grok --model ${m} --always-approve`;
    case "cursor":
      return `cursor-agent --model ${m} --force --trust`;
    case "codex":
      return `codex --model ${m}`;
    case "gemini":
      return "gemini";
    case "opencode":
      return "opencode";
    case "agy":
      return `agy --model ${m} --dangerously-skip-permissions`;
    default:
      return runtime;
  }
}

export type MasterHostSource = "env" | "instance-config" | "fallback";

export interface MasterHost {
  runtime: string;
  source: MasterHostSource;
  configPath: string;
}

const FALLBACK_MASTER_HOST = "codex";

/**
 * env MOGUI_MASTER_HOST_RUNTIME (or MASTER_HOST_RUNTIME) > the instance config's master_host_runtime > the
 * fallback `codex` (reported as a guess). The ops scripts' MOGUI_INSTANCE_RUNTIME_CONFIG names the config file
 * when set; otherwise the one D2 resolution (INSTANCE_RUNTIME_CONFIG > $MOGUI_HOME/config/instance-runtime.json).
 */
export function resolveMasterHost(ctx: Pick<Ctx, "env" | "cwd">): MasterHost {
  const explicit = ctx.env.MOGUI_INSTANCE_RUNTIME_CONFIG?.trim() || undefined;
  const cfg = loadInstanceConfig(ctx, explicit);
  const fromEnv = [ctx.env.MOGUI_MASTER_HOST_RUNTIME, ctx.env.MASTER_HOST_RUNTIME].some((v) => v !== undefined && v.trim() !== "");
  if (cfg.masterHostRuntime) return { runtime: cfg.masterHostRuntime, source: fromEnv ? "env" : "instance-config", configPath: cfg.configPath };
  return { runtime: FALLBACK_MASTER_HOST, source: "fallback", configPath: cfg.configPath };
}

/** One line (issue 13): the guess, what it affects, and where to set the real value. */
export function fallbackWarning(configPath: string): string {
  return (
    `WARNING: master host runtime is the hardcoded fallback '${FALLBACK_MASTER_HOST}' (not measured; the same-host check compares against this guess)` +
    ` — set MOGUI_MASTER_HOST_RUNTIME, or master_host_runtime in ${configPath}, to the runtime this master session runs on`
  );
}
