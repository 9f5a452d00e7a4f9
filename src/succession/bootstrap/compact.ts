/**
 * §11.3: after a compaction the hook's Role State and tracks must not pose as recall. Their sections are cut out
 * (one E12 line marks where), and the first-injection banner goes on top.
 */
export const E12_LINE = "[E12] compact: tracks/role suppressed for recall probe (recall first, then check against the tracker for the authoritative state)";
export const E12_BANNER =
  "[E12-CRITICAL] compact first-injection warning: this hook output may be arriving after the first synthetic continuation turn. " +
  "Treat the previous synthetic turn as unrehydrated; before any tool action, Read the canonical role-state.md, declare Role State, " +
  "and stop if that Read is unavailable.";

const HEADING = /^\s{0,3}#{2,6}\s+(.*)$/;

function suppressed(title: string): boolean {
  const t = title.trim().toLowerCase();
  // `활성트랙` is the reference's heading match (the reference, docs/decisions.md), input read from a handoff: kept byte for byte.
  return t.startsWith("role state") || t.startsWith("active tracks") || title.replace(/\s+/g, "").startsWith("활성트랙");
}

export function suppressCompactRecall(block: unknown): string {
  if (typeof block !== "string") return E12_BANNER;
  try {
    const out: string[] = [];
    let skipping = false;
    let marked = false;
    for (const line of block.split("\n")) {
      const h = HEADING.exec(line);
      if (h) {
        skipping = suppressed(h[1]!);
        if (skipping && !marked) {
          out.push(E12_LINE);
          marked = true;
        }
        if (skipping) continue;
      }
      if (!skipping) out.push(line);
    }
    if (!marked) {
      const i = out.findIndex((l) => l.startsWith("[MASTER-BOOTSTRAP"));
      out.splice(i < 0 ? 0 : i + 1, 0, E12_LINE);
    }
    const text = out.join("\n");
    return text.startsWith(E12_BANNER) ? text : `${E12_BANNER}\n${text}`;
  } catch {
    return `${E12_BANNER}\n${block}`;
  }
}

/** What suppression can add at most: the banner and the E12 line, each with its newline. */
export const COMPACT_OVERHEAD = E12_BANNER.length + E12_LINE.length + 2;
