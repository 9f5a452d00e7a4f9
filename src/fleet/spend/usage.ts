/**
 * Measured token usage from a worker's own transcript (issue 18, DECISIONS D37), read incrementally from a saved
 * byte offset with the transcript reader model-drift-audit uses. Each model response counts ONCE:
 * - Claude Code writes one response as several lines (one per content block) that carry the same message id and
 *   the same usage: the first line of an id counts, the rest are skipped (the last ids are kept across runs).
 * - Codex repeats a `token_count` event whose cumulative total did not move: only a change of the total counts,
 *   as the difference from the last total seen.
 * Malformed lines are skipped and counted; a torn last line is left unread (the next run picks it up once complete).
 *
 * Speed (issue 18: >= 200 MB/s): a line that cannot carry usage for its format (MARKERS) is never decoded or
 * parsed; it is only checked to be one JSON object's shape (`{` ... `}`). Every other line, and every line until
 * the format is known, is parsed in full.
 */
import { forEachLineBytes, formatOf, type TranscriptFormat } from "../../publishing/probes/transcript.ts";

export interface Tokens {
  input: number;
  output: number;
  cache_read: number;
  cache_creation: number;
}

export interface ModelUsage extends Tokens {
  responses: number;
}

/** What is carried from one run to the next for one transcript. */
export interface CursorState {
  offset: number;
  format: TranscriptFormat | null;
  /** The last Claude Code message ids counted (a response's lines may straddle two runs). */
  ids: string[];
  /** Codex: the last cumulative total seen, and the model in force. */
  codexTotal: Tokens | null;
  model: string | null;
}

export interface ReadResult {
  cursor: CursorState;
  byModel: Map<string, ModelUsage>;
  malformed: number;
  /** Lines read in this run (terminated ones). */
  lines: number;
  /** First and last response timestamps seen in this run (ISO text from the transcript). */
  firstAt: string | null;
  lastAt: string | null;
}

const KEEP_IDS = 32;
const WS = new Set([0x20, 0x09, 0x0d, 0x0a]);
/** Byte markers of the only lines that can carry usage (or, for Codex, the model in force), per format. */
const MARKERS: Record<TranscriptFormat, Buffer[]> = {
  "claude-code": [Buffer.from('"usage"')],
  codex: ['"token_count"', '"turn_context"', '"session_meta"'].map((m) => Buffer.from(m)),
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

export function emptyCursor(): CursorState {
  return { offset: 0, format: null, ids: [], codexTotal: null, model: null };
}

export function tokenTotal(t: Tokens): number {
  return t.input + t.output + t.cache_read + t.cache_creation;
}

function add(map: Map<string, ModelUsage>, model: string, t: Tokens): void {
  const u = map.get(model) ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0, responses: 0 };
  u.input += t.input;
  u.output += t.output;
  u.cache_read += t.cache_read;
  u.cache_creation += t.cache_creation;
  u.responses++;
  map.set(model, u);
}

/** Claude Code: an assistant line's message usage, or null. */
function claudeUsage(ev: Obj): { id: string | null; model: string; tokens: Tokens } | null {
  const msg = isObj(ev.message) ? ev.message : null;
  if (!msg || !isObj(msg.usage)) return null;
  if (ev.type !== "assistant" && msg.role !== "assistant") return null;
  const u = msg.usage;
  const id = typeof msg.id === "string" && msg.id !== "" ? msg.id : typeof ev.requestId === "string" ? ev.requestId : null;
  return {
    id,
    model: typeof msg.model === "string" && msg.model.trim() !== "" ? msg.model : "<missing>",
    tokens: { input: num(u.input_tokens), output: num(u.output_tokens), cache_read: num(u.cache_read_input_tokens), cache_creation: num(u.cache_creation_input_tokens) },
  };
}

/** Codex cumulative totals: input_tokens includes the cached part, which is reported apart as cache_read. */
function codexTotal(info: Obj): Tokens | null {
  const t = info.total_token_usage;
  if (!isObj(t)) return null;
  const cached = num(t.cached_input_tokens);
  return { input: Math.max(0, num(t.input_tokens) - cached), output: num(t.output_tokens), cache_read: cached, cache_creation: 0 };
}

function delta(now: Tokens, prev: Tokens | null): Tokens | null {
  if (prev && now.input === prev.input && now.output === prev.output && now.cache_read === prev.cache_read) return null;
  // A total that went down is a new cumulative series (a restarted session in the same file): count it whole.
  if (!prev || now.input < prev.input || now.output < prev.output || now.cache_read < prev.cache_read) return now;
  return { input: now.input - prev.input, output: now.output - prev.output, cache_read: now.cache_read - prev.cache_read, cache_creation: 0 };
}

/** Read `path` from `cursor.offset` to its last complete line. */
export function readUsage(path: string, start: CursorState): ReadResult {
  const cursor: CursorState = { ...start, ids: [...start.ids], codexTotal: start.codexTotal ? { ...start.codexTotal } : null };
  const out: ReadResult = { cursor, byModel: new Map(), malformed: 0, lines: 0, firstAt: null, lastAt: null };
  const seen = new Set(cursor.ids);
  const stamp = (ev: Obj) => {
    if (typeof ev.timestamp !== "string") return;
    out.firstAt ??= ev.timestamp;
    out.lastAt = ev.timestamp;
  };
  const handle = (ev: Obj) => {
    if (cursor.format === "codex") {
      const p = ev.payload as Obj;
      if ((ev.type === "turn_context" || ev.type === "session_meta") && typeof p.model === "string" && p.model.trim() !== "") cursor.model = p.model;
      if (ev.type !== "event_msg" || p.type !== "token_count" || !isObj(p.info)) return;
      const total = codexTotal(p.info);
      if (!total) return;
      const d = delta(total, cursor.codexTotal);
      cursor.codexTotal = total;
      if (d) {
        add(out.byModel, cursor.model ?? "<missing>", d);
        stamp(ev);
      }
      return;
    }
    const u = claudeUsage(ev);
    if (!u) return;
    if (u.id !== null) {
      if (seen.has(u.id)) return;
      seen.add(u.id);
      cursor.ids.push(u.id);
      if (cursor.ids.length > KEEP_IDS) seen.delete(cursor.ids.shift()!);
    }
    add(out.byModel, u.model, u.tokens);
    stamp(ev);
  };
  const decoder = new TextDecoder("utf-8", { fatal: true });
  forEachLineBytes(
    path,
    (bytes, _n, terminated, end) => {
      if (!terminated) return; // torn or still being written: read it next time
      out.lines++;
      cursor.offset = end;
      let a = 0;
      let b = bytes.length;
      while (a < b && WS.has(bytes[a]!)) a++;
      while (b > a && WS.has(bytes[b - 1]!)) b--;
      if (a === b) return;
      if (bytes[a] !== 0x7b || bytes[b - 1] !== 0x7d) {
        out.malformed++;
        return;
      }
      if (cursor.format !== null && !MARKERS[cursor.format].some((m) => bytes.indexOf(m, a) >= 0)) return;
      let ev: unknown;
      try {
        ev = JSON.parse(decoder.decode(bytes.subarray(a, b)));
      } catch {
        ev = undefined;
      }
      if (!isObj(ev)) {
        out.malformed++;
        return;
      }
      cursor.format ??= formatOf(ev);
      handle(ev);
    },
    start.offset,
  );
  return out;
}
