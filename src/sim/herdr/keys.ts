/**
 * What typing does to a fake pane. Text is shown at once (pasted into the agent's input box); Enter submits it, so
 * an idle agent starts working; Ctrl+C stops a working agent. Nothing here is real agent behaviour beyond that.
 */
import { HerdrSimError } from "./store.ts";
import type { HPane, InternalState } from "./types.ts";

const KEYS = /^(enter|tab|esc|escape|backspace|up|down|left|right|space|minus|plus|backtick|shift\+tab|f([1-9]|1[0-2])|(ctrl|alt)\+.|C-.|.)$/i;

export function setState(p: HPane, next: InternalState, focusedSeen = p.focused): void {
  if (!p.agent || p.agent.state === next) return;
  const completing = next === "idle" && (p.agent.state === "working" || p.agent.state === "blocked");
  p.agent.state = next;
  p.agent.state_change_seq++;
  // herdr: any non-idle state marks the pane seen; a completion in a background pane reads `done` until focused.
  p.agent.seen = next !== "idle" ? true : completing ? focusedSeen : p.agent.seen;
  p.revision++;
}

export function typeText(p: HPane, text: string): void {
  p.output.push(...text.split("\n"));
  p.revision++;
}

export function pressKeys(p: HPane, keys: readonly string[]): void {
  for (const k of keys) if (!KEYS.test(k)) throw new HerdrSimError("invalid_key", `unsupported key ${k}`);
  for (const k of keys) {
    const key = k.toLowerCase();
    if (key === "enter" && p.agent && p.agent.state === "idle") setState(p, "working");
    else if ((key === "ctrl+c" || key === "c-c") && p.agent?.state === "working") setState(p, "idle");
  }
}
