/**
 * Reading the hook payload on stdin without ever hanging a session start. Ctx has no stdin seam, so this reads
 * fd 0 directly: nothing for a character device (a TTY, /dev/null, and /dev/zero, which never ends); a regular
 * file synchronously, at most STDIN_MAX_BYTES of it; a pipe asynchronously with a deadline (a parent that never
 * closes the pipe must not block the hook), then the reader is released.
 */
import { fstatSync, readSync } from "node:fs";

const STDIN_DEADLINE_MS = 1_000;
const STDIN_MAX_BYTES = 1 << 20;

export async function readStdinText(deadlineMs = STDIN_DEADLINE_MS): Promise<string> {
  try {
    const st = fstatSync(0);
    if (st.isCharacterDevice()) return "";
    if (st.isFile()) return readFileHead(Math.min(st.size, STDIN_MAX_BYTES));
  } catch {
    return "";
  }
  return readPipe(deadlineMs);
}

function readFileHead(bytes: number): string {
  const buf = Buffer.allocUnsafe(bytes);
  let n = 0;
  while (n < bytes) {
    const r = readSync(0, buf, n, bytes - n, null);
    if (r <= 0) break;
    n += r;
  }
  return buf.subarray(0, n).toString("utf8");
}

async function readPipe(deadlineMs: number): Promise<string> {
  const reader = Bun.stdin.stream().getReader();
  const decoder = new TextDecoder();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">((r) => (timer = setTimeout(() => r("expired"), deadlineMs)));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === "expired" || next.done) break;
      text += decoder.decode(next.value, { stream: true });
      if (text.length > STDIN_MAX_BYTES) break;
    }
  } catch {
    /* a broken pipe is an empty payload */
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return text + decoder.decode();
}

/** The SessionStart payload's fields mogui uses; anything that is not a JSON object yields nothing. */
export function parseSessionStart(text: string): { source?: string; sessionId?: string } {
  if (!text.trim()) return {};
  try {
    const j = JSON.parse(text) as unknown;
    if (!j || typeof j !== "object" || Array.isArray(j)) return {};
    const o = j as Record<string, unknown>;
    return {
      source: typeof o.source === "string" ? o.source : undefined,
      sessionId: typeof o.session_id === "string" && o.session_id ? o.session_id : undefined,
    };
  } catch {
    return {};
  }
}
