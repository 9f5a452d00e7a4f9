/**
 * Large scans use every core: the file list is split, each extra share is scanned by this same program in a child
 * process (`redaction-scan --shard-list <file>`, hidden), and the parent scans its own share meanwhile. A child
 * resolves the rules exactly as the parent did (same env, same -C, same --config) and prints one JSON document.
 * A child that fails makes the whole scan undecided (exit 2), never clean.
 *
 * Memory stays bounded in every process: shares are contiguous slices of the file list sorted by path, each process
 * keeps only the first `budget` findings (in file, line, rule order) and counts the rest, and the parent keeps the
 * first `budget` of the shares taken in order.
 */
import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { Ctx } from "../../lib/context.ts";
import { ok, type RunResult } from "../../lib/runner.ts";
import { Batch } from "./batch.ts";
import { pathAllowed, scanTextBounded, type Compiled, type Finding, type TextHint } from "./engine.ts";
import { ScanFail } from "./rules.ts";
import { readText, type PathRef } from "./sources.ts";
import { scanLargeFile, STREAM_MIN } from "./stream.ts";
import { keepOutOfFTL } from "./tier.ts";

/** A file to scan: where it is (and whether a walk saw a regular file there) and how findings name it. */
export interface FileRef extends PathRef {
  shown: string;
}

const SHARD_MIN_FILES = 2000;
const CHILD_TIMEOUT = 30 * 60_000;

/** How many processes a large scan may use: $MOGUI_SCAN_JOBS (1 turns sharding off), else the core count, at most 8. */
function jobsWanted(ctx: Pick<Ctx, "env">): number {
  const raw = ctx.env.MOGUI_SCAN_JOBS?.trim();
  return Math.max(1, raw && /^\d+$/.test(raw) ? Number(raw) : Math.min(8, availableParallelism()));
}

/** How many processes scan `files` files: one below SHARD_MIN_FILES, else one per 500 files up to jobsWanted. */
export function jobCount(ctx: Pick<Ctx, "env">, files: number): number {
  if (files < SHARD_MIN_FILES) return 1;
  return Math.max(1, Math.min(jobsWanted(ctx), Math.floor(files / 500)));
}

/**
 * A scan of fewer files than SHARD_MIN_FILES is still split when its files hold at least this much per process (a
 * few large transcripts or bundles): one process per SHARD_BYTES_PER_JOB, up to jobsWanted and the file count.
 */
const SHARD_BYTES_PER_JOB = 8 * 1024 * 1024;

/** Each file's size in bytes (0 for one that is not a regular file, or cannot be read). */
export function fileSizes(files: readonly FileRef[]): number[] {
  return files.map((f) => {
    try {
      const st = lstatSync(f.abs);
      return st.isFile() ? st.size : 0;
    } catch {
      return 0;
    }
  });
}

/** How many processes scan files of these sizes (jobCount said one: too few files to split by count). */
export function jobCountBySize(ctx: Pick<Ctx, "env">, sizes: readonly number[]): number {
  const total = sizes.reduce((a, b) => a + b, 0);
  return Math.max(1, Math.min(jobsWanted(ctx), sizes.length, Math.floor(total / SHARD_BYTES_PER_JOB)));
}

/** Contiguous slices in order of about equal bytes, none empty (`jobs` <= the file count). */
export function splitBySize<T>(files: readonly T[], sizes: readonly number[], jobs: number): T[][] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const out: T[][] = [];
  let from = 0;
  let acc = 0;
  for (let k = 1; k < jobs; k++) {
    let to = from + 1;
    acc += sizes[from]!;
    // Cut once this share reaches its part of the total, leaving at least one file for each share after it.
    while (to < files.length - (jobs - k) && acc + sizes[to]! / 2 <= (total * k) / jobs) acc += sizes[to++]!;
    out.push(files.slice(from, to));
    from = to;
  }
  out.push(files.slice(from));
  return out;
}

export interface ShardResult {
  /** The first `budget` findings, sorted by file, line and rule. */
  findings: Finding[];
  /** Findings past the budget: counted, not listed. */
  more: number;
  /** Findings dropped by a fingerprint in .gitleaksignore or the baseline. */
  suppressed: number;
  bytes: number;
  /** Files skipped as binary (blind spots), and the first BLIND_LISTED of them. */
  binary: number;
  binaryFiles: string[];
}

export const BLIND_LISTED = 100;

export interface ShardOptions {
  budget: number;
  /** Fingerprints (content `<file>:<rule>:<hash>:<n>`, or line `<file>:<rule>:<line>`) not to report. */
  ignore: ReadonlySet<string>;
  progress?: (done: number) => void;
  /** Called with each listed finding as soon as its file is scanned (in file order): the text output streams. */
  onFinding?: (f: Finding) => void;
  /** False: base64 runs without WebAssembly SIMD (the fallback; tests compare both). */
  simd?: boolean;
}

/** Scans `files` in this process, in order: in batches (batch.ts), and one by one what a batch does not take. */
export function scanShard(c: Compiled, files: readonly FileRef[], opts: ShardOptions): ShardResult {
  const out: ShardResult = { findings: [], more: 0, suppressed: 0, bytes: 0, binary: 0, binaryFiles: [] };
  // Progress counts files scanned (a file in a batch when the batch is), every 64th.
  let done = 0;
  const finished = () => {
    if ((++done & 63) === 0) opts.progress?.(done);
  };
  const binary = (f: FileRef) => {
    if (out.binary++ < BLIND_LISTED) out.binaryFiles.push(f.shown);
    finished();
  };
  const visitor = {
    text: (f: FileRef, text: string, bytes: number, hint: TextHint) => {
      out.bytes += bytes;
      addText(c, out, f.shown, text, opts, hint);
      finished();
    },
    binary,
  };
  const batch = new Batch(c, opts.simd !== false);
  for (const f of files) {
    if (pathAllowed(c, f.shown)) {
      finished();
      continue;
    }
    let added = batch.add(f);
    if (added === "full") {
      batch.flush(visitor);
      added = batch.add(f);
    }
    if (added === "added") continue;
    batch.flush(visitor);
    // A large UTF-8 file (a long transcript) is scanned in chunks, never read whole (stream.ts).
    if (f.regular && largeFile(f.abs)) {
      const r = scanLargeFile(c, out, f.abs, f.shown, opts, addText);
      if (r === "binary") binary(f);
      if (r !== "utf16") {
        if (r === "done") finished();
        continue;
      }
    }
    // Every check of its own (lstat first): the batch did not take it, or it changed since it was listed.
    const t = readText(f.abs);
    if (t === "binary") {
      binary(f);
      continue;
    }
    if (t) {
      out.bytes += t.bytes;
      addText(c, out, f.shown, t.text, opts);
    }
    finished();
  }
  batch.flush(visitor);
  return out;
}

function largeFile(abs: string): boolean {
  try {
    const st = lstatSync(abs);
    return st.isFile() && st.size > STREAM_MIN;
  } catch {
    return false;
  }
}

/** Scans one text into `out`, within the budget left. */
export function addText(c: Compiled, out: ShardResult, shown: string, text: string, opts: Pick<ShardOptions, "budget" | "ignore" | "onFinding">, hint?: TextHint): void {
  const skip = opts.ignore.size ? (rule: string, line: number, content: string) => opts.ignore.has(content) || opts.ignore.has(`${shown}:${rule}:${line}`) : undefined;
  const r = scanTextBounded(c, shown, text, Math.max(0, opts.budget - out.findings.length), skip, hint);
  for (const f of r.findings) {
    out.findings.push(f);
    opts.onFinding?.(f);
  }
  out.more += r.more;
  out.suppressed += r.suppressed;
}

/** Appends `next` (a later share, in file order) to `out`, keeping the first `budget` findings. */
function mergeShard(out: ShardResult, next: ShardResult, budget: number, onFinding?: (f: Finding) => void): void {
  for (const f of next.findings) {
    if (out.findings.length < budget) {
      out.findings.push(f);
      onFinding?.(f);
    } else out.more++;
  }
  out.more += next.more;
  out.suppressed += next.suppressed;
  out.bytes += next.bytes;
  out.binary += next.binary;
  for (const b of next.binaryFiles) if (out.binaryFiles.length < BLIND_LISTED) out.binaryFiles.push(b);
}

const FindingSchema = v.object({
  file: v.string(),
  line: v.number(),
  column: v.number(),
  rule: v.string(),
  description: v.string(),
  match: v.string(),
  snippet: v.string(),
  decoded: v.optional(v.picklist(["base64", "percent"])),
  fingerprint: v.string(),
});
const ResultSchema = v.object({
  findings: v.array(FindingSchema),
  more: v.number(),
  suppressed: v.number(),
  bytes: v.number(),
  binary: v.number(),
  binaryFiles: v.array(v.string()),
});

/**
 * A share's file list on disk: per file its absolute path, shown path and `r` for a regular file (else nothing), each
 * ended by a NUL (no path holds one). Split in a few milliseconds where JSON plus a schema check took several more.
 */
export function writeShardList(path: string, files: readonly FileRef[]): void {
  let s = "";
  for (const f of files) s += `${f.abs}\0${f.shown}\0${f.regular ? "r" : ""}\0`;
  writeFileSync(path, s, { mode: 0o600 });
}

export function readShardList(path: string): FileRef[] {
  const parts = readFileSync(path, "utf8").split("\0");
  const n = parts.length - 1;
  if (n % 3 !== 0 || parts[n] !== "") throw new ScanFail("shard list is malformed");
  const out: FileRef[] = new Array(n / 3);
  for (let i = 0; i < n; i += 3) {
    const flag = parts[i + 2];
    if (flag !== "" && flag !== "r") throw new ScanFail("shard list is malformed");
    out[i / 3] = flag ? { abs: parts[i]!, shown: parts[i + 1]!, regular: true } : { abs: parts[i]!, shown: parts[i + 1]! };
  }
  return out;
}

/**
 * A child process started once the file list was known starts late (its own start-up, rule loading and compiling,
 * ~40 ms, while this process already scans): this process's share is then larger by up to CHILD_HEAD_START files (a
 * tenth of a share at most), taken evenly from the children's, so that all finish about together. Children started
 * during the directory walk (`late` false) are ready when this process is: even shares. Contiguous slices in order.
 */
export const CHILD_HEAD_START = 800;

export function splitShares<T>(files: readonly T[], jobs: number, late = true): T[][] {
  const even = files.length / jobs;
  const lead = late ? Math.min(CHILD_HEAD_START, Math.floor(even / 10)) : 0;
  const first = Math.min(files.length, Math.ceil(even) + lead);
  const size = Math.ceil((files.length - first) / Math.max(1, jobs - 1));
  return [files.slice(0, first), ...Array.from({ length: jobs - 1 }, (_, k) => files.slice(first + k * size, first + (k + 1) * size))];
}

/**
 * The child processes of a parallel scan, started before their shares are known: a child loads and compiles the
 * rules (its start-up, ~40 ms) while this process is still listing files, then waits for the end of its standard
 * input (`--shard-wait`) before it reads its file list. `feed` writes every list, then closes every child's input;
 * a child given no files prints an empty result at once. `release` lets children go with empty lists (a failed or
 * small scan).
 */
export class ShardPool {
  private readonly dir = mkdtempSync(join(tmpdir(), "mogui-scan-"));
  private readonly lists: string[] = [];
  private readonly go: Array<() => void> = [];
  private fed = false;
  readonly results: Array<Promise<RunResult>> = [];

  /** `late`: started once the file list was known (not during the walk), so the children start behind. */
  constructor(
    private readonly ctx: Ctx,
    private readonly childArgs: string[],
    count: number,
    readonly late = false,
  ) {
    this.grow(count);
  }

  /** Starts children until there are `count` (a walk that keeps finding files wants more of them). */
  grow(count: number): void {
    while (!this.fed && this.lists.length < count) {
      const list = join(this.dir, `share-${this.lists.length + 1}.list`);
      this.lists.push(list);
      const input = new Promise<string>((resolve) => this.go.push(() => resolve("")));
      const { ctx } = this;
      const result = ctx.runner([...ctx.self, "redaction-scan", ...this.childArgs, "--shard-wait", "--shard-list", list], { env: ctx.env, cwd: ctx.cwd, timeoutMs: CHILD_TIMEOUT, stdin: input });
      // Awaited once the lists are written: a runner failing before that is not an unhandled rejection meanwhile.
      result.catch(() => {});
      this.results.push(result);
    }
  }

  get size(): number {
    return this.lists.length;
  }

  /** Writes the children's shares (a child past `shares` gets none) and lets every child start. */
  feed(shares: readonly (readonly FileRef[])[]): void {
    if (this.fed) return;
    this.fed = true;
    this.lists.forEach((list, k) => writeShardList(list, shares[k] ?? []));
    for (const go of this.go) go();
  }

  release(): void {
    this.feed([]);
  }

  /** Lets every child go with an empty list, waits for them, and removes the lists' directory. */
  async close(): Promise<void> {
    this.release();
    await Promise.allSettled(this.results);
    this.dispose();
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Splits `files` across this process and the pool's children (`jobs` processes in all, at most the pool's size + 1;
 * by bytes when `sizes` are given);
 * returns every share's result merged in order (the first share is this process's). `compile` is called once the
 * children have their lists, so compiling the rules here overlaps their start-up when the pool started late.
 */
export async function scanSharded(ctx: Ctx, compile: () => Compiled, files: readonly FileRef[], jobs: number, pool: ShardPool, opts: ShardOptions, progress?: (done: number, total: number) => void, sizes?: readonly number[]): Promise<ShardResult> {
  const n = Math.min(jobs, pool.size + 1);
  // `sizes`: split by bytes (a few large files), else by count.
  const shares = sizes ? splitBySize(files, sizes, n) : splitShares(files, n, pool.late);
  try {
    pool.feed(shares.slice(1));
    // One turn of the event loop: the children's inputs are closed (they start) before this process is busy.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The child processes run while this one scans its own share (synchronously).
    const out = scanShard(compile(), shares[0]!, { ...opts, progress: (i) => progress?.(Math.min(files.length - 1, i * jobs), files.length) });
    for (const r of await Promise.all(pool.results)) {
      let parsed: v.SafeParseResult<typeof ResultSchema> | null = null;
      try {
        parsed = ok(r) ? v.safeParse(ResultSchema, JSON.parse(r.stdout)) : null;
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        // A child's own stderr, handed through as is under --debug (not a diagnostic of ours).
        if (ctx.debug && r.stderr) ctx.io.stderr(r.stderr.endsWith("\n") ? r.stderr : `${r.stderr}\n`);
        // Colour stripped: a child run under FORCE_COLOR colours its verdict word (src/lib/log.ts).
        const why =
          r.stderr
            .replace(/\x1b\[[0-9;]*m/g, "")
            .split("\n")
            .find((l) => l.startsWith("redaction-scan: FAIL")) ?? "a scan process failed (engine error, not a finding)";
        throw new ScanFail(why.replace(/^redaction-scan: FAIL — /, ""));
      }
      mergeShard(out, parsed.output, opts.budget, opts.onFinding);
    }
    return out;
  } finally {
    pool.release();
    pool.dispose();
  }
}

// The per-file path (tier.ts).
keepOutOfFTL(scanShard, addText);
