/**
 * §9 MASTER-LINEAGE.md: an append-only markdown ledger of generations. D23: a duplicate generation is a whole
 * `- **Generation**: <n>` line, so 5 may follow 50. The write is verified by re-reading (original bytes + the new
 * section); on any failure the original bytes are put back.
 */
import { closeSync, lstatSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { lockPathFor } from "../../lib/ledger.ts";
import { LockTimeoutError, withLock } from "../../lib/lock.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export class LineageValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LineageValidationError";
  }
}
export class LineageAppendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LineageAppendError";
  }
}

/** [key, label] in render order; `notes` is optional and last. */
export const FIELDS: readonly (readonly [string, string])[] = [
  ["generation", "Generation"],
  ["parent_session", "Parent Session"],
  ["successor_session", "Successor Session"],
  ["timestamp", "Timestamp"],
  ["inherited_role", "Inherited Role"],
  ["succession_reason", "Succession reason"],
  ["recovery_sources", "Recovery sources"],
  ["inherited_open_tracks", "Inherited open tracks"],
  ["verification", "Verification"],
  ["repeated_question_count", "Repeated-question count"],
  ["reopened_decision_count", "Reopened-decision count"],
  ["context_loss_summary", "Context-loss summary"],
  ["predecessor_retirement_verified", "Predecessor retirement verified"],
  ["notes", "Notes"],
];
const INTS = new Set(["generation", "repeated_question_count", "reopened_decision_count"]);
const VERIFICATIONS = ["PASS", "PARTIAL", "FAILED"] as const;

export type Entry = Record<string, string | number>;

export function validateEntry(raw: unknown): Entry {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new LineageValidationError("lineage entry must be a JSON object");
  const e = raw as Record<string, unknown>;
  const known = new Set(FIELDS.map(([k]) => k));
  const extra = Object.keys(e).filter((k) => !known.has(k));
  if (extra.length) throw new LineageValidationError(`unknown lineage field: ${extra.sort().join(", ")}`);
  const out: Entry = {};
  for (const [k] of FIELDS) {
    const v = e[k];
    if (v === undefined || v === null) {
      if (k === "notes") continue;
      throw new LineageValidationError(`missing lineage field: ${k}`);
    }
    if (INTS.has(k)) {
      if (typeof v !== "number" || !Number.isInteger(v)) throw new LineageValidationError(`lineage field ${k} must be an integer`);
      if (v < 0) throw new LineageValidationError(`lineage field ${k} must be non-negative`);
    } else if (typeof v !== "string") throw new LineageValidationError(`lineage field ${k} must be a string`);
    else if (/[\r\n]/.test(v)) throw new LineageValidationError(`lineage field ${k} must be one line`);
    out[k] = v as string | number;
  }
  if (!(VERIFICATIONS as readonly string[]).includes(out.verification as string)) {
    throw new LineageValidationError(`lineage field verification must be one of ${VERIFICATIONS.join(", ")}`);
  }
  return out;
}

export function renderSection(e: Entry): string {
  const lines = [`## Gen ${e.generation} — ${e.timestamp}`, ""];
  for (const [k, label] of FIELDS) {
    if (e[k] === undefined) continue;
    const v = k === "verification" ? `**${e[k]}**` : String(e[k]);
    lines.push(`- **${label}**: ${v}`);
  }
  return `${lines.join("\n")}\n`;
}

export function hasGeneration(text: string, n: number): boolean {
  const want = `- **Generation**: ${n}`;
  return text.split(/\r?\n/).some((l) => l.trimEnd() === want);
}

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return Buffer.alloc(0);
    throw new LineageAppendError(`cannot read ${path}: ${errorMessage(e)}`);
  }
}

function refuseSymlink(path: string): void {
  try {
    if (lstatSync(path).isSymbolicLink()) throw new LineageValidationError(`refusing to write through a symlink: ${path}`);
  } catch (e) {
    if (e instanceof LineageValidationError) throw e;
  }
}

/** Append under the ledger's lock; returns the section written. */
export function appendEntry(path: string, raw: unknown, hooks: { afterWrite?: () => void } = {}): string {
  const entry = validateEntry(raw);
  refuseSymlink(path);
  try {
    return withLock(lockPathFor(path), () => appendLocked(path, entry, hooks));
  } catch (e) {
    if (e instanceof LineageValidationError || e instanceof LineageAppendError || e instanceof LockTimeoutError) throw e;
    // The lock file itself could not be created (e.g. no such directory): nothing was written.
    throw new LineageAppendError(`cannot lock ${path}: ${errorMessage(e)}`);
  }
}

function appendLocked(path: string, entry: Entry, hooks: { afterWrite?: () => void }): string {
  const original = readBytes(path);
  if (hasGeneration(original.toString("utf8"), entry.generation as number)) {
    throw new LineageValidationError(`generation already exists: ${entry.generation}`);
  }
  const rendered = renderSection(entry);
  const section = (original.length ? "\n\n" : "") + rendered;
  const expected = Buffer.concat([original, Buffer.from(section)]);
  try {
    const fd = openSync(path, "a");
    try {
      writeSync(fd, section);
    } finally {
      closeSync(fd);
    }
    hooks.afterWrite?.();
    if (!readFileSync(path).equals(expected)) throw new LineageAppendError(`post-write verification failed for ${path}`);
  } catch (e) {
    try {
      writeFileSync(path, original);
    } catch {
      /* the error below still says the append failed */
    }
    if (e instanceof LineageAppendError) throw new LineageAppendError(`${e.message}; original bytes restored`);
    throw new LineageAppendError(`append to ${path} failed: ${errorMessage(e)}; original bytes restored`);
  }
  return rendered;
}

/** Parse the ledger back into entries (snake_case keys; ints as numbers; the verification without its **). */
export function parseLedger(text: string): { entries: Entry[]; warnings: string[] } {
  const byLabel = new Map(FIELDS.map(([k, l]) => [l, k]));
  const entries: Entry[] = [];
  const warnings: string[] = [];
  let cur: Entry | null = null;
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^## Gen /.test(line)) {
      cur = {};
      entries.push(cur);
      return;
    }
    const m = /^- \*\*(.+?)\*\*: (.*)$/.exec(line);
    if (!m) return;
    if (!cur) {
      warnings.push(`line ${i + 1}: field outside a generation section`);
      return;
    }
    const key = byLabel.get(m[1]!);
    if (!key) {
      warnings.push(`line ${i + 1}: unknown label ${m[1]}`);
      return;
    }
    let v: string | number = m[2]!;
    if (key === "verification") v = v.replace(/^\*\*(.*)\*\*$/, "$1");
    if (INTS.has(key) && /^\d+$/.test(v)) v = Number(v);
    (cur as Entry)[key] = v;
  });
  return { entries, warnings };
}
