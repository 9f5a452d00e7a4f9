/**
 * The work ledger (§8): append-only JSONL events `register` / `update` / `close` per track, replayed into track
 * states. Replay never stops at a bad line: each one becomes a `line <n>: ...` warning and is skipped.
 * `WorkspaceRuntime` is the session cache: a snapshot taken once, refreshed on demand, updated by its own writes.
 */
import { readFileSync } from "node:fs";
import { appendIfSync, LedgerError, type LedgerWarning } from "../../lib/ledger.ts";
import { errnoCode } from "../../lib/errors.ts";

export const WORK_LEDGER_ENV = "MOGUI_WORK_LEDGER";
export const WORK_LEDGER_FILE = "work-ledger.jsonl";

export interface TrackState {
  track_id: string;
  title: string;
  refs: string[];
  status: string;
  note: string;
  resolution: string | null;
  registered_at: number;
  updated_at: number;
  closed_at: number | null;
}

export class TrackRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TrackRuleError";
  }
}

export interface Replay {
  tracks: Map<string, TrackState>;
  warnings: string[];
  /** Lines that are not JSON objects, except a torn last line (no newline after it): no append may follow them. */
  corrupt: { line: number; why: string }[];
}

const isStr = (v: unknown): v is string => typeof v === "string";

function applyEvent(tracks: Map<string, TrackState>, e: Record<string, unknown>): string | undefined {
  const id = e.track_id;
  const ts = typeof e.ts === "number" ? e.ts : undefined;
  if (!isStr(id) || !id || ts === undefined) return "missing track_id or ts";
  const cur = tracks.get(id);
  switch (e.event) {
    case "register": {
      if (!isStr(e.title) || !e.title) return "register without title";
      if (cur && cur.status !== "CLOSED") return `track already active: ${id}`;
      const refs = Array.isArray(e.refs) ? e.refs.map(String) : [];
      tracks.set(id, { track_id: id, title: e.title, refs, status: "REGISTERED", note: "", resolution: null, registered_at: ts, updated_at: ts, closed_at: null });
      return undefined;
    }
    case "update":
      if (!cur || cur.status === "CLOSED") return `unknown track: ${id}`;
      if (isStr(e.status) && e.status) cur.status = e.status;
      cur.note = isStr(e.note) ? e.note : "";
      cur.updated_at = ts;
      return undefined;
    case "close":
      if (!cur || cur.status === "CLOSED") return `unknown track: ${id}`;
      if (!isStr(e.resolution) || !e.resolution) return "close without resolution";
      Object.assign(cur, { status: "CLOSED", resolution: e.resolution, closed_at: ts, updated_at: ts });
      return undefined;
    default:
      return `unknown event: ${String(e.event)}`;
  }
}

export function replayText(text: string): Replay {
  const tracks = new Map<string, TrackState>();
  const warnings: string[] = [];
  const corrupt: Replay["corrupt"] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const bad = (why: string) => {
      warnings.push(`line ${i + 1}: ${why}`);
      // The last element has no newline after it: a writer that died mid-append, set aside by the next append.
      if (i < lines.length - 1) corrupt.push({ line: i + 1, why });
    };
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      bad("invalid JSON");
      return;
    }
    if (!e || typeof e !== "object" || Array.isArray(e)) {
      bad("not an object");
      return;
    }
    const why = applyEvent(tracks, e as Record<string, unknown>);
    if (why) warnings.push(`line ${i + 1}: ${why}`);
  });
  return { tracks, warnings, corrupt };
}

export function replayFile(path: string): Replay {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return { tracks: new Map(), warnings: [], corrupt: [] };
    throw e;
  }
  return replayText(text);
}

export function activeTracks(r: Replay): TrackState[] {
  return [...r.tracks.values()].filter((t) => t.status !== "CLOSED");
}

/** One line per track, always: a title or status carrying newlines must not forge lines (or headings) of the boot block. */
export function trackLine(t: TrackState): string {
  return `${t.track_id} ${t.title} [${t.status}]`.replace(/\s*[\r\n]+\s*/g, " ");
}

export class WorkspaceRuntime {
  private snap: Replay;
  /** Where a torn tail that an append sets aside is reported. */
  onLedgerWarning?: (w: LedgerWarning) => void;

  constructor(
    readonly path: string,
    private readonly clock: () => number = () => Date.now() / 1000,
  ) {
    this.snap = replayFile(path);
  }

  refresh(): void {
    this.snap = replayFile(this.path);
  }

  get warnings(): string[] {
    return this.snap.warnings;
  }

  tracks(): TrackState[] {
    return [...this.snap.tracks.values()];
  }

  activeTracks(): TrackState[] {
    return activeTracks(this.snap);
  }

  private write(event: Record<string, unknown>): TrackState {
    // Re-read under the same rules first, INSIDE the ledger's lock (issue 24 §3): another session may have written
    // since the snapshot, and none can write between this check and the append. The appender contract (D18): a
    // corrupt line other than a torn last one stops the write before anything is appended.
    return appendIfSync(
      this.path,
      () => {
        this.refresh();
        const bad = this.snap.corrupt[0];
        if (bad) throw new LedgerError("corrupt", this.path, `corrupt line (${bad.why})`, bad.line);
        const row = { ...event, ts: this.clock() };
        const why = applyEvent(this.snap.tracks, structuredClone(row));
        if (why) throw new TrackRuleError(why);
        return { rows: [row], result: this.snap.tracks.get(event.track_id as string)! };
      },
      { onWarning: this.onLedgerWarning },
    );
  }

  registerTrack(id: string, title: string, refs: string[] = []): TrackState {
    if (!id.trim() || !title.trim()) throw new TrackRuleError("track id and title are required");
    return this.write({ event: "register", track_id: id, title, refs });
  }

  updateTrack(id: string, status: string, note = ""): TrackState {
    if (!status.trim()) throw new TrackRuleError("status is required");
    return this.write({ event: "update", track_id: id, status, note });
  }

  closeTrack(id: string, resolution: string): TrackState {
    if (!resolution.trim()) throw new TrackRuleError("resolution is required");
    return this.write({ event: "close", track_id: id, resolution });
  }
}
