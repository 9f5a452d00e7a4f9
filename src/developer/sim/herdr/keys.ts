/**
 * What typing does to a fake pane. Text is shown at once (echoed from the agent's input box); Enter submits the input
 * as one prompt, so an idle agent starts working; Ctrl+C or Esc (the agent CLIs' "esc to interrupt") stops a
 * working agent. Raw text (`pane send-text`) reaches
 * a TUI agent as keystrokes: each newline in it is an Enter, so a multi-line text is submitted line by line. A
 * bracketed paste (`agent prompt`) keeps the newlines inside one prompt. Nothing here is real agent behaviour
 * beyond that.
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

/** Lines shown in the pane (the agent's or the shell's own output; no input is involved). */
export function typeText(p: HPane, text: string): void {
  p.output.push(...text.split("\n"));
  p.revision++;
}

/** Enter: the agent's pending input becomes one prompt, and an idle agent starts working. */
function submit(p: HPane): void {
  if (!p.agent) return;
  if (p.agent.input) (p.agent.prompts ??= []).push(p.agent.input);
  p.agent.input = "";
  if (p.agent.state === "idle") setState(p, "working");
}

/** `pane send-text`: keystrokes. Into an agent, every newline is an Enter that submits what was typed so far. */
export function typeRaw(p: HPane, text: string): void {
  typeText(p, text);
  if (!p.agent) return;
  const parts = text.split("\n");
  parts.forEach((part, i) => {
    p.agent!.input = (p.agent!.input ?? "") + part;
    if (i < parts.length - 1) submit(p);
  });
}

/** `agent prompt`: one bracketed paste (newlines stay inside the input), submitted by the Enter that follows. */
export function pasteText(p: HPane, text: string): void {
  typeText(p, text);
  if (p.agent) p.agent.input = (p.agent.input ?? "") + text;
}

export function pressKeys(p: HPane, keys: readonly string[]): void {
  for (const k of keys) if (!KEYS.test(k)) throw new HerdrSimError("invalid_key", `unsupported key ${k}`);
  for (const k of keys) {
    const key = k.toLowerCase();
    if (key === "enter") submit(p);
    else if ((key === "ctrl+c" || key === "c-c" || key === "esc" || key === "escape") && p.agent?.state === "working") setState(p, "idle");
  }
}
