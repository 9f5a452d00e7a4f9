/** What one simulated herdr command gets, and the helpers the command groups share. */
import type { Ctx } from "../../../lib/context.ts";
import type { ParsedArgs } from "./argv.ts";
import { HerdrSimError, type Store } from "./store.ts";
import type { HFault, HPane, HState } from "./types.ts";

export interface Call {
  ctx: Ctx;
  /** The request id herdr prints (`cli:pane:list`). */
  id: string;
  args: ParsedArgs;
  store: Store;
  fault?: HFault;
}

/** stdout text printed verbatim (reads), a `result` printed in the envelope, or nothing (silent commands). */
export type Outcome = { text: string } | { result: Record<string, unknown> } | { silent: true };

export interface CommandDef {
  spec: import("./argv.ts").Spec;
  run(call: Call): Outcome | Promise<Outcome>;
}

export function findPane(s: HState, id: string, code = "pane_not_found"): HPane {
  const p = s.panes.find((x) => x.pane_id === id);
  if (!p) throw new HerdrSimError(code, code === "agent_pane_not_found" ? `agent target pane ${id} not found` : `pane ${id} not found`);
  return p;
}

/** 0.7.5+ agent targets: a unique live agent name, or the pane id currently hosting an agent. */
export function findAgent(s: HState, target: string): HPane {
  const byName = s.panes.filter((p) => p.agent?.name === target);
  if (byName.length > 1) {
    throw new HerdrSimError("agent_target_ambiguous", `agent target ${target} is ambiguous; candidates: ${byName.map((p) => p.pane_id).join(", ")}`);
  }
  const p = byName[0] ?? s.panes.find((x) => x.pane_id === target && x.agent);
  if (!p) throw new HerdrSimError("agent_not_found", `agent target ${target} not found`);
  return p;
}

/** A status-reporting call moves every flapping pane it reported one step along its cycle. */
export function advanceFlaps(panes: HPane[]): void {
  for (const p of panes) if (p.flap && p.flap.length > 0) p.flap_i = ((p.flap_i ?? 0) + 1) % p.flap.length;
}

/** HERDR_SIM_SHELL_INIT=N: every new pane answers its first N `agent start` calls with `agent_pane_busy`. */
export function shellInit(call: Call): number | undefined {
  const raw = call.ctx.env.HERDR_SIM_SHELL_INIT;
  return raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** The text a read returns: the last `lines` lines of scrollback (`visible` = the last 24 rows of the screen). */
export function readText(p: HPane, source: string, lines: number | undefined): string {
  const n = source === "visible" || source === "detection" ? Math.min(lines ?? 24, 24) : Math.min(lines ?? 80, 1000);
  const tail = p.output.slice(-n);
  return tail.length ? `${tail.join("\n")}\n` : "";
}

export const READ_SOURCES = ["visible", "recent", "recent-unwrapped", "recent_unwrapped", "detection"];

/** herdr's waits: try every 50 ms until `attempt` gives a value; past `timeoutMs` (none = forever) herdr's `timeout` error. */
export async function pollUntil<T>(timeoutMs: number | undefined, what: string, attempt: () => T | undefined): Promise<T> {
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  for (;;) {
    const hit = attempt();
    if (hit !== undefined) return hit;
    if (Date.now() >= deadline) throw new HerdrSimError("timeout", `timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}
