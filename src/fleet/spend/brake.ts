/**
 * The spend brake (D44): a job's measured tokens against its cap, DURING the run, with no model in the loop.
 *
 * `mogui hook spend-brake` (PreToolUse in the worker's Claude Code session) calls `advanceBrake` on every tool call
 * with the transcript the hook input names. Only the bytes appended since the last call are read (readUsage from a
 * saved cursor: the same counting rules as `spend record`, each response once, a torn last line left for later).
 * The state is one small JSON file per job under $MOGUI_HOME/spend-brake/, replaced atomically (atomicWrite; the
 * rename is what makes it atomic against a killed hook, so no fsync is paid on every tool call: a power loss that
 * could lose the state would lose the transcript's own unsynced tail too), so a crash leaves either the old or the
 * new state, never half of one: a crash before the rename reads the same bytes again next call, and nothing is
 * counted twice. Concurrent calls: see advanceBrake.
 *
 * A transcript that shrank or was replaced (another inode) is read again from the start; what it had counted stays
 * counted (`retired`), so the brake errs toward stopping, never toward letting a worker run past its cap.
 *
 * `spend watch --follow` uses the same decision (`brakeAction`) on the spend ledger's measured tokens.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from "node:fs";
import { errnoCode } from "../../lib/errors.ts";
import { dirname, join } from "node:path";
import { moguiHome, type Ctx } from "../../lib/context.ts";
import { atomicWrite } from "../../lib/fs.ts";
import { emptyCursor, readUsage, tokenTotal, type CursorState } from "./usage.ts";

/** The share of the cap at which the brake warns once (80%). */
const WARN_RATIO = 0.8;

interface BrakeTranscript {
  ino: number;
  cursor: CursorState;
  /** Tokens counted from this transcript (input + output + cache read + cache write). */
  tokens: number;
}

interface BrakeState {
  v: 1;
  job_id: string;
  transcripts: Record<string, BrakeTranscript>;
  /** Tokens counted from transcripts that were later replaced or truncated (kept: they were spent). */
  retired: number;
  /** The 80% warning was given (it is given once per job). */
  warned: boolean;
  /** Tool calls denied so far. */
  denials: number;
}

export type BrakeAction = "none" | "warn" | "deny";

export interface BrakeResult {
  job_id: string;
  tokens: number;
  max_tokens: number;
  /** Whole percent of the cap used (rounded down). */
  percent: number;
  action: BrakeAction;
  /** Bytes read in this call. */
  read_bytes: number;
  transcript: string;
}

/** The decision alone: past the cap deny; at 80% or more warn, once; otherwise nothing. */
export function brakeAction(tokens: number, maxTokens: number, warned: boolean): BrakeAction {
  if (tokens > maxTokens) return "deny";
  if (!warned && tokens >= maxTokens * WARN_RATIO) return "warn";
  return "none";
}

export function percentOf(tokens: number, maxTokens: number): number {
  return maxTokens > 0 ? Math.floor((tokens * 100) / maxTokens) : tokens > 0 ? 100 : 0;
}

function stateTotal(s: BrakeState): number {
  let t = s.retired;
  for (const tr of Object.values(s.transcripts)) t += tr.tokens;
  return t;
}

/** A job id as a file name: its safe characters, plus a hash so two ids never share a file. */
function fileName(job: string): string {
  const safe = job.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80);
  return `${safe}-${Bun.hash(job).toString(16)}.json`;
}

/** $MOGUI_HOME/spend-brake/<job>.json (the directory can be moved with $MOGUI_SPEND_BRAKE_DIR). */
export function brakeStatePath(ctx: Pick<Ctx, "env" | "cwd">, job: string): string {
  const dir = ctx.env.MOGUI_SPEND_BRAKE_DIR || join(moguiHome(ctx), "spend-brake");
  return join(dir, fileName(job));
}

class BrakeStateError extends Error {
  override name = "BrakeStateError";
}

function loadBrake(path: string, job: string): BrakeState {
  if (!existsSync(path)) return { v: 1, job_id: job, transcripts: {}, retired: 0, warned: false, denials: 0 };
  let s: BrakeState;
  try {
    s = JSON.parse(readFileSync(path, "utf8")) as BrakeState;
  } catch {
    throw new BrakeStateError(`brake state ${path} is not readable JSON`);
  }
  if (s?.v !== 1 || s.job_id !== job || typeof s.transcripts !== "object" || s.transcripts === null) {
    throw new BrakeStateError(`brake state ${path} is not a brake state of job ${job}`);
  }
  return s;
}

/**
 * Read what `transcript` gained since the last call, fold it into the job's state, decide, save. No lock (a kernel
 * lock costs every tool call a dlopen): each saved state is one consistent read (every transcript's offset with the
 * tokens counted up to it), and the last rename wins, so two hook calls of one session at once never count a
 * response twice; at worst the later call reads some bytes again. The one warning is claimed by creating
 * `<state>.warned` exclusively, so it is given once even then.
 */
export function advanceBrake(statePath: string, job: string, transcript: string, maxTokens: number): BrakeResult {
  mkdirSync(dirname(statePath), { recursive: true });
  const s = loadBrake(statePath, job);
  let readBytes = 0;
  let st: { ino: number; size: number } | null = null;
  try {
    const t = statSync(transcript);
    if (t.isFile()) st = { ino: t.ino, size: t.size };
  } catch {
    st = null; // not there (yet): nothing new to count
  }
  if (st) {
    let entry: BrakeTranscript | undefined = s.transcripts[transcript];
    if (entry && (entry.ino !== st.ino || st.size < entry.cursor.offset)) {
      s.retired += entry.tokens;
      entry = undefined;
    }
    entry ??= { ino: st.ino, cursor: emptyCursor(), tokens: 0 };
    if (st.size > entry.cursor.offset) {
      const before = entry.cursor.offset;
      const r = readUsage(transcript, entry.cursor);
      for (const u of r.byModel.values()) entry.tokens += tokenTotal(u);
      entry.cursor = r.cursor;
      readBytes = r.cursor.offset - before;
    }
    s.transcripts[transcript] = entry;
  }
  const tokens = stateTotal(s);
  let action = brakeAction(tokens, maxTokens, s.warned);
  if (action === "warn") {
    s.warned = true;
    if (!claimWarning(`${statePath}.warned`)) action = "none";
  }
  if (action === "deny") s.denials++;
  if (readBytes > 0 || action !== "none" || !existsSync(statePath)) atomicWrite(statePath, `${JSON.stringify(s)}\n`, 0o600, ".mogui-brake-", false);
  return { job_id: job, tokens, max_tokens: maxTokens, percent: percentOf(tokens, maxTokens), action, read_bytes: readBytes, transcript };
}

/** True for the one caller that creates the marker; false when it exists already. */
function claimWarning(marker: string): boolean {
  try {
    closeSync(openSync(marker, "wx", 0o600));
    return true;
  } catch (e) {
    if (errnoCode(e) === "EEXIST") return false;
    throw e;
  }
}

/** The one-time warning, said to the session and to the operator. */
export function warnText(r: Pick<BrakeResult, "job_id" | "tokens" | "max_tokens" | "percent">): string {
  return `mogui spend-brake: job ${r.job_id} has used ${r.tokens} of its ${r.max_tokens} tokens (${r.percent}%). Finish the current step, then write your report: tool calls are denied once the cap is passed.`;
}

/** Why a tool call is denied past the cap: the figures and what to do. */
export function denyText(r: Pick<BrakeResult, "job_id" | "tokens" | "max_tokens" | "percent">): string {
  return `mogui spend-brake: DENIED: job ${r.job_id} used ${r.tokens} tokens, over its cap of ${r.max_tokens} (${r.percent}%). Stop now and write your report (no more tool calls will run); the operator must raise the cap (--max-tokens) for this job to continue.`;
}
