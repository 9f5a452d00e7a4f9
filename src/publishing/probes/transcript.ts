/**
 * Reading agent transcripts (reference §19/§20, D27): Claude Code JSONL and Codex session JSONL, streamed line by
 * line in constant memory. A format that is neither is `unsupported` (never a guess); malformed lines are skipped
 * and counted; a torn last line (a writer died mid-append) is ignored.
 */
import { closeSync, openSync, readSync } from "node:fs";

export const SYNTHETIC = "<synthetic>";
export const MISSING = "<missing>";

export type TranscriptFormat = "claude-code" | "codex";

export interface AssistantTurn {
  model: string;
  /** The event's top-level `timestamp` (ISO text) when present. */
  timestamp: string | null;
}

export interface TranscriptScan {
  format: TranscriptFormat | null;
  /** Every non-blank line that was not JSON, or not an object (the torn last line excluded). */
  malformed: number;
  /** The first malformed line number (1-based), for messages. */
  firstMalformedLine: number | null;
  tornLastLine: boolean;
  /** JSON object lines seen (format-deciding or not). */
  objects: number;
}

export class TranscriptError extends Error {
  override name = "TranscriptError";
}

const NESTED = ["message", "item", "payload", "response"] as const;
const CODEX_TYPES = new Set(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const CLAUDE_TYPES = new Set(["user", "assistant", "system", "summary", "file-history-snapshot", "queue-operation", "attachment"]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Which format one event proves, if any. */
export function formatOf(ev: Obj): TranscriptFormat | null {
  const t = ev.type;
  if (typeof t === "string" && CODEX_TYPES.has(t) && isObj(ev.payload)) return "codex";
  if (typeof t === "string" && CLAUDE_TYPES.has(t)) return "claude-code";
  if ("sessionId" in ev || "parentUuid" in ev) return "claude-code";
  // The minimal shape the reference's own fixtures use: an event with a `role`, or a `message` object.
  if (typeof ev.role === "string" || isObj(ev.message)) return "claude-code";
  return null;
}

/**
 * The reference's assistant detection: candidates are the event and its nested dicts under message/item/payload/
 * response; from the first assistant candidate on, the first non-blank string `model` wins; an assistant without
 * one is `<missing>`; no assistant candidate -> not a turn (null).
 */
function assistantModel(ev: Obj): string | null {
  const candidates: Obj[] = [ev];
  for (const k of NESTED) if (isObj(ev[k])) candidates.push(ev[k] as Obj);
  const start = candidates.findIndex((c) => c.role === "assistant" || c.type === "assistant");
  if (start < 0) return null;
  for (const c of candidates.slice(start)) {
    if (typeof c.model === "string" && c.model.trim() !== "") return c.model;
  }
  return MISSING;
}

/**
 * Codex session files carry the model on `turn_context` (and older ones on `session_meta`), not on each assistant
 * message: each assistant `message` item is a turn of the model in force at that point.
 */
class CodexState {
  model: string | null = null;
  turn(ev: Obj): string | null {
    const p = ev.payload as Obj;
    if ((ev.type === "turn_context" || ev.type === "session_meta") && typeof p.model === "string" && p.model.trim() !== "") {
      this.model = p.model;
      return null;
    }
    if (ev.type === "response_item" && p.type === "message" && p.role === "assistant") {
      return typeof p.model === "string" && p.model.trim() !== "" ? p.model : (this.model ?? MISSING);
    }
    return null;
  }
}

const CHUNK = 1 << 20;

/**
 * Calls `onLine(bytes, lineNo, terminated, end)` for every line (without its newline), reading the file in 1 MiB
 * chunks from byte `start` (default 0; line numbers then count from there). `end` is the byte offset just past the
 * line's newline, so a caller can resume after the last complete line. `bytes` is only valid during the call.
 */
export function forEachLineBytes(path: string, onLine: (bytes: Buffer, n: number, terminated: boolean, end: number) => void, start = 0): void {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer[] = [];
    let n = 0;
    let pos = start;
    for (;;) {
      const got = readSync(fd, buf, 0, CHUNK, pos);
      if (got === 0) break;
      let from = 0;
      for (;;) {
        const nl = buf.indexOf(10, from);
        if (nl < 0 || nl >= got) break;
        // A line wholly inside this chunk is handed over in place (the buffer is reused only after the call).
        const bytes = carry.length === 0 ? buf.subarray(from, nl) : Buffer.concat([...carry, buf.subarray(from, nl)]);
        onLine(bytes, ++n, true, pos + nl + 1);
        carry = [];
        from = nl + 1;
      }
      if (from < got) carry.push(Buffer.from(buf.subarray(from, got)));
      pos += got;
    }
    if (carry.length) onLine(Buffer.concat(carry), ++n, false, pos);
  } finally {
    closeSync(fd);
  }
}

/**
 * Calls `onLine(text, lineNo, terminated, end)` for every line, as forEachLineBytes reads it. A line that is not
 * valid UTF-8 (a torn multi-byte character, a corrupt write) arrives as null.
 */
function forEachLine(path: string, onLine: (line: string | null, n: number, terminated: boolean, end: number) => void, start = 0): void {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  forEachLineBytes(
    path,
    (bytes, n, terminated, end) => {
      let text: string | null;
      try {
        text = decoder.decode(bytes);
      } catch {
        text = null;
      }
      onLine(text, n, terminated, end);
    },
    start,
  );
}

/** Streams a transcript, calling `onTurn` for each assistant turn in order. */
export function scanTranscript(path: string, onTurn: (t: AssistantTurn) => void): TranscriptScan {
  const scan: TranscriptScan = { format: null, malformed: 0, firstMalformedLine: null, tornLastLine: false, objects: 0 };
  const codex = new CodexState();
  // Turns seen before the format is known are held (a file's first lines may not decide it); in practice the
  // first event decides, so this stays tiny.
  let pending: Obj[] = [];
  const handle = (ev: Obj) => {
    if (scan.format === "codex") {
      const m = codex.turn(ev);
      if (m !== null) onTurn({ model: m, timestamp: typeof ev.timestamp === "string" ? ev.timestamp : null });
      return;
    }
    const m = assistantModel(ev);
    if (m !== null) onTurn({ model: m, timestamp: typeof ev.timestamp === "string" ? ev.timestamp : null });
  };
  forEachLine(path, (line, n, terminated) => {
    if (line !== null && line.trim() === "") return;
    let ev: unknown;
    try {
      ev = line === null ? undefined : JSON.parse(line);
    } catch {
      ev = undefined;
    }
    if (!isObj(ev)) {
      if (!terminated && ev === undefined) {
        scan.tornLastLine = true;
        return;
      }
      scan.malformed++;
      scan.firstMalformedLine ??= n;
      return;
    }
    scan.objects++;
    if (scan.format === null) {
      scan.format = formatOf(ev);
      if (scan.format === null) {
        if (pending.length < 64) pending.push(ev);
        return;
      }
      for (const p of pending) handle(p);
      pending = [];
    }
    handle(ev);
  });
  return scan;
}
