/**
 * Interrupting a worker's agent through its host, for `spend watch --follow` past the cap (D44). The agent is
 * interrupted, never killed: herdr gets the interrupt key the agent CLIs document (`esc`: Claude Code's and Codex's
 * "esc to interrupt") through `herdr pane send-keys <pane> esc`; Orca gets `orca terminal send --terminal <h>
 * --interrupt` (docs/orca-cli.md). No process is signalled and nothing is reaped.
 */
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import { HerdrClient } from "../../lib/herdr/client.ts";
import type { HostKind } from "../../lib/host/types.ts";
import { OrcaClient } from "../../lib/orca/client.ts";

const HERDR_INTERRUPT_KEY = "esc";

export interface InterruptResult {
  ok: boolean;
  /** What was sent, as a person would type it. */
  via: string;
  error?: string;
}

export async function interruptAgent(ctx: Ctx, host: HostKind, pane: string, timeoutMs?: number): Promise<InterruptResult> {
  if (host === "orca") {
    const via = `orca terminal send --terminal ${pane} --interrupt`;
    try {
      const r = await new OrcaClient(ctx, timeoutMs ? { timeoutMs } : {}).terminalSend(pane, { interrupt: true });
      return r.accepted ? { ok: true, via } : { ok: false, via, error: `not accepted${r.refusedReason ? ` (${r.refusedReason})` : ""}` };
    } catch (e) {
      return { ok: false, via, error: errorMessage(e) };
    }
  }
  const via = `herdr pane send-keys ${pane} ${HERDR_INTERRUPT_KEY}`;
  try {
    await new HerdrClient(ctx, timeoutMs).sendKeys(pane, HERDR_INTERRUPT_KEY);
    return { ok: true, via };
  } catch (e) {
    return { ok: false, via, error: errorMessage(e) };
  }
}
