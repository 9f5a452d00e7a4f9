/**
 * The pane classifier of reference §4.5: what the last 8 lines of a worker's terminal say about delivery. The four
 * marker sets keep the reference's names (its test extracted them by name). First matching class wins, in the
 * order hook-trust > limit > prepared-prompt; a line is tested whole, so a marker phrase in the middle of ordinary
 * output ("spec mentions provider rate limit") never counts.
 */

export type PaneClass = "hook-trust" | "limit" | "prepared-prompt" | "unknown";
export type DeliveryClass = "hook-trust" | "limit" | "agent-started" | "unknown";

// POSIX [[:space:]] and [[:punct:]] (ASCII), as the reference's grep -E used them.
const SPACE = "[ \\t\\n\\v\\f\\r]";
const PUNCT = "!-\\/:-@\\[-`{-~";

/** Trust / login / onboarding screens that block an agent before it reads its prompt (case-insensitive). */
const HOOK_TRUST_MARKERS = [
  "Resume session.*",
  "New worktree.*",
  "Coming from Claude Code.*",
  "Changelog.*",
  "Select a model.*",
  "Welcome to Claude.*",
  "Do you trust the files.*",
  "Sign in.*",
  "press enter to continue.*",
  "/login.*",
  "Antigravity CLI requires permission.*",
  "I trust this folder.*",
  "trust this workspace.*",
  "workspace trust.*",
  "permission to access.*",
] as const;

/** Provider rate / credit limits, anchored at the start of a line (case-insensitive). */
const LIMIT_MARKERS = ["rate limit", "rate-limit", "too many requests", "quota exceeded", "out of credits", "credits are exhausted", "usage limit reached", "you.?ve hit your limit", "you have reached your limit", "try again after"] as const;

/** An agent's empty input prompt, named (case-sensitive). */
const PREPARED_PROMPT_MARKERS = ["claude", "codex", "grok", "gemini"] as const;

/** An agent's empty input prompt, as a bare glyph. */
const PREPARED_UNICODE_PROMPT_MARKERS = ["❯", "›", "➜"] as const;

const HOOK_TRUST_RE = new RegExp(`^${SPACE}*(${HOOK_TRUST_MARKERS.join("|")})[${PUNCT}\\s]*$`, "iu");
const LIMIT_RE = new RegExp(`^${SPACE}*(${LIMIT_MARKERS.join("|")})[${PUNCT}\\s]*.*$`, "iu");
const PREPARED_RE = new RegExp(`^${SPACE}*(${PREPARED_PROMPT_MARKERS.join("|")})${SPACE}*>${SPACE}*$`, "u");
const PREPARED_UNICODE_RE = new RegExp(`^${SPACE}*(${PREPARED_UNICODE_PROMPT_MARKERS.join("|")})${SPACE}*$`, "u");

/** The last `n` lines, as `tail -n` sees them (a final newline does not make an empty last line). */
export function lastLines(pane: string, n = 8): string[] {
  const lines = pane.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.slice(-n);
}

export function paneClassifyText(pane: string): PaneClass {
  const lines = lastLines(pane);
  if (lines.some((l) => HOOK_TRUST_RE.test(l))) return "hook-trust";
  if (lines.some((l) => LIMIT_RE.test(l))) return "limit";
  if (lines.some((l) => PREPARED_RE.test(l) || PREPARED_UNICODE_RE.test(l))) return "prepared-prompt";
  return "unknown";
}

/**
 * What the change from the pane before the inject (`pre`) to after it (`post`) means: a trust or limit screen
 * after the inject is a failed delivery whatever came before; a bare prompt that turned into anything else is an
 * agent that started working; everything else is unverified.
 */
export function deliveryResult(pre: PaneClass, post: PaneClass): DeliveryClass {
  if (post === "hook-trust") return "hook-trust";
  if (post === "limit") return "limit";
  if (pre === "prepared-prompt" && post === "unknown") return "agent-started";
  return "unknown";
}
