/**
 * One redaction scan (reference §21, D28) with the native engine: list what the mode covers, validate ranges,
 * scan commit messages and files, drop `.gitleaksignore` and `--baseline` fingerprints, deduplicate and sort; keep
 * the first `--max-findings` and count the rest.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { Ctx } from "../../lib/context.ts";
import { recoverUtf16Text } from "./decode.ts";
import { compileRules, pathAllowed, type Compiled, type Finding } from "./engine.ts";
import { addText, BLIND_LISTED, fileSizes, jobCount, jobCountBySize, scanShard, scanSharded, ShardPool, type FileRef, type ShardResult } from "./shard.ts";
import type { LoadedRules } from "./rules.ts";
import { ScanFail } from "./rules.ts";
import { blobsAt, blobTexts, commitMessages, displayPath, expandPathRefs, rangeFiles, rangeResolves, rangeTip, stagedFiles, trackedFiles, type Mode } from "./sources.ts";
import { errnoCode } from "../../lib/errors.ts";

export interface ScanRequest {
  mode: Mode;
  /** The repository root (git modes) or the base directory (--paths). */
  root: string;
  range?: string;
  messageRange?: string;
  paths?: readonly string[];
  /** --paths only: keep the files whose path this matches (the transcript stores' `*.jsonl`). */
  include?: RegExp;
}

export interface ScanReport {
  files: number;
  bytes: number;
  commitMessages: number | null;
  /** The first `budget` findings, sorted by file, line and rule. */
  findings: Finding[];
  /** Findings past `--max-findings`: counted, not listed. */
  more: number;
  /** Findings dropped by .gitleaksignore or --baseline fingerprints. */
  suppressed: number;
  /** Binary files skipped (blind spots) and the first of them by name. */
  binary: number;
  binaryFiles: string[];
}

export interface ScanOptions {
  /** --max-findings: how many findings are listed (default 1000); the rest are counted. */
  budget: number;
  /** Fingerprints not to report: .gitleaksignore plus the baseline report's. */
  ignore: ReadonlySet<string>;
  /** --max-decode-depth: how many times nested base64 is decoded. */
  decodeDepth: number;
  /** What a share's child process needs to scan as this one does (--max-findings, --baseline, ...). */
  childArgs: string[];
  /**
   * Called with each listed finding once its file (or commit message) is scanned: commit messages first, then files
   * in path order, at most `budget` in all. The report's own list stays sorted by file, line and rule.
   */
  onFinding?: (f: Finding) => void;
}

export const DEFAULT_MAX_FINDINGS = 1000;

export type Progress = (done: number, total: number) => void;

/**
 * `.gitleaksignore`: `[<commit>:]<file>:<rule>:<line>` (matched on file, rule and line) or a content fingerprint
 * `<file>:<rule>:<hash>:<n>` per line.
 */
export function readIgnore(root: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(join(root, ".gitleaksignore"), "utf8");
  } catch {
    return new Set();
  }
  const out = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    out.add(line.replace(/^[0-9a-f]{40}:/, ""));
  }
  return out;
}

/**
 * A finding's line fingerprint: `<file>:<rule>:<line>`, the form .gitleaksignore takes (without gitleaks' commit
 * prefix) and the one older reports carry. It names where a finding is and which rule made it, never the secret.
 * The content fingerprint (`Finding.fingerprint`, engine.ts) survives line moves; both are honoured when reading.
 */
export function lineFingerprint(f: Pick<Finding, "file" | "rule" | "line">): string {
  return `${f.file}:${f.rule}:${f.line}`;
}

/** Whether `ignore` names a finding by either of its fingerprints. */
function ignored(ignore: ReadonlySet<string>, f: Pick<Finding, "file" | "rule" | "line" | "fingerprint">): boolean {
  return ignore.has(f.fingerprint) || ignore.has(lineFingerprint(f));
}

export function findingLine(f: Finding): string {
  return `  ${f.file}:${f.line}  [${f.rule}] ${f.description}${f.decoded ? ` (in decoded ${f.decoded})` : ""}  :: ${f.snippet}`;
}

const BaselineSchema = v.union([
  v.looseObject({ findings: v.array(v.looseObject({ fingerprint: v.string() })) }),
  // A gitleaks JSON report: `Fingerprint` is `[<commit>:]<file>:<rule>:<line>`.
  v.array(v.looseObject({ Fingerprint: v.string() })),
]);

/**
 * The fingerprints of a previous `--report-format json` report (content fingerprints, or line fingerprints in a
 * report of an older mogui) or of a gitleaks JSON report (line fingerprints).
 */
export function readBaseline(path: string): Set<string> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ScanFail(`cannot read the baseline ${path}: ${errnoCode(e) ?? "not JSON"}`);
  }
  const parsed = v.safeParse(BaselineSchema, raw);
  if (!parsed.success) throw new ScanFail(`the baseline ${path} is not a redaction-scan JSON report`);
  const list = Array.isArray(parsed.output) ? parsed.output.map((f) => f.Fingerprint.replace(/^[0-9a-f]{40}:/, "")) : parsed.output.findings.map((f) => f.fingerprint);
  return new Set(list);
}

async function listFiles(ctx: Ctx, req: ScanRequest, found?: (count: number) => void): Promise<FileRef[]> {
  if (req.mode === "paths")
    return expandPathRefs(req.root, req.paths ?? [], found)
      .filter((r) => !req.include || req.include.test(r.abs))
      .map((r) => (r.regular ? { abs: r.abs, shown: displayPath(req.root, r.abs), regular: true } : { abs: r.abs, shown: displayPath(req.root, r.abs) }));
  const rels = req.mode === "tracked" ? await trackedFiles(ctx, req.root) : req.mode === "staged" ? await stagedFiles(ctx, req.root) : await rangeFiles(ctx, req.root, req.range!);
  return rels.map((rel) => ({ abs: join(req.root, rel), shown: rel }));
}

export async function validateRanges(ctx: Ctx, req: ScanRequest): Promise<void> {
  if (req.range && !(await rangeResolves(ctx, req.root, req.range))) throw new ScanFail(`range does not resolve in this repository: ${req.range}`);
  if (req.messageRange && req.messageRange !== req.range && !(await rangeResolves(ctx, req.root, req.messageRange))) {
    throw new ScanFail(`message range does not resolve: ${req.messageRange}`);
  }
}

const empty = (): ShardResult => ({ findings: [], more: 0, suppressed: 0, bytes: 0, binary: 0, binaryFiles: [] });

async function scanMessages(ctx: Ctx, c: Compiled, root: string, range: string, opts: ScanOptions): Promise<{ count: number; res: ShardResult }> {
  const msgs = await commitMessages(ctx, root, range);
  const res = empty();
  for (const m of msgs) addText(c, res, `commit:${m.sha.slice(0, 12)}`, m.body, opts);
  return { count: msgs.length, res };
}

export async function runNativeScan(ctx: Ctx, rules: LoadedRules, req: ScanRequest, given: ScanOptions, progress?: Progress): Promise<ScanReport> {
  await validateRanges(ctx, req);
  // Messages and files each keep up to `budget` findings; what streams is the first `budget` of both in scan order.
  let streamed = 0;
  const emit = given.onFinding;
  const opts: ScanOptions = emit ? { ...given, onFinding: (f) => void (streamed++ < given.budget && emit(f)) } : given;
  // Compiled when first needed: a sharded scan starts its child processes first, so they load while this one compiles.
  let compiled: Compiled | null = null;
  const compile = (): Compiled => (compiled ??= compileRules(rules.set.rules, rules.set.allowlists, { decodeDepth: opts.decodeDepth }));
  let commitCount: number | null = null;
  let messages = empty();
  const messageRange = req.messageRange ?? (req.mode === "range" ? req.range : undefined);
  if (messageRange) {
    const m = await scanMessages(ctx, compile(), req.root, messageRange, opts);
    commitCount = m.count;
    messages = m.res;
  }
  let files: number;
  let res: ShardResult;
  if (req.mode === "staged" || req.mode === "range") {
    ({ files, res } = await scanCommitted(ctx, compile(), req, opts, progress));
  } else {
    const childArgs = ["-C", req.root, ...(rules.configPath ? ["--config", rules.configPath] : []), ...opts.childArgs];
    // A directory walk that reaches SHARD_MIN_FILES files will be a parallel scan: the child processes start then
    // (as many as the files found so far call for, more as the walk goes on) and load while it lists the rest.
    let pool: ShardPool | null = null;
    const found = (count: number) => {
      const children = jobCount(ctx, count) - 1;
      if (children < 1) return;
      if (pool === null) pool = new ShardPool(ctx, childArgs, children);
      else pool.grow(children);
    };
    let list: FileRef[];
    try {
      // Sorted by the path shown, so shares in order are findings in file order.
      list = (await listFiles(ctx, req, found)).sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    } catch (e) {
      await (pool as ShardPool | null)?.close();
      throw e;
    }
    let jobs = jobCount(ctx, list.length);
    // Too few files to split by count: split by bytes when they are large (a few transcripts or bundles).
    let sizes: number[] | undefined;
    if (jobs === 1 && list.length > 1) {
      sizes = fileSizes(list);
      jobs = jobCountBySize(ctx, sizes);
    }
    if (jobs > 1) res = await scanSharded(ctx, compile, list, jobs, pool ?? new ShardPool(ctx, childArgs, jobs - 1, true), opts, progress, sizes);
    else {
      // Fewer files than the walk counted (a path given twice): one process after all.
      await (pool as ShardPool | null)?.close();
      res = scanShard(compile(), list, { ...opts, progress: (i) => progress?.(i, list.length) });
    }
    progress?.(list.length, list.length);
    files = list.length;
  }
  return { files, commitMessages: commitCount, ...combine(messages, res, opts.budget) };
}

/** Commit-message findings and file findings in one sorted list of at most `budget`. */
function combine(a: ShardResult, b: ShardResult, budget: number): Omit<ScanReport, "files" | "commitMessages"> {
  const all = sortFindings([...a.findings, ...b.findings]);
  const findings = all.slice(0, budget);
  return {
    findings,
    more: a.more + b.more + (all.length - findings.length),
    suppressed: a.suppressed + b.suppressed,
    bytes: a.bytes + b.bytes,
    binary: a.binary + b.binary,
    binaryFiles: [...a.binaryFiles, ...b.binaryFiles].slice(0, BLIND_LISTED),
  };
}

/** --staged and --range read what git holds (the index, the range's tip), not the working tree. */
async function scanCommitted(ctx: Ctx, c: Compiled, req: ScanRequest, opts: ScanOptions, progress?: Progress): Promise<{ files: number; res: ShardResult }> {
  const names = req.mode === "staged" ? await stagedFiles(ctx, req.root) : await rangeFiles(ctx, req.root, req.range!);
  const refs = (await blobsAt(ctx, req.root, req.mode === "staged" ? { index: true } : { rev: rangeTip(req.range!) }, names)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const texts = await blobTexts(
    ctx,
    req.root,
    refs.filter((r) => !pathAllowed(c, r.path)).map((r) => r.sha),
  );
  const res = empty();
  refs.forEach((r, i) => {
    if ((i & 63) === 0) progress?.(i, refs.length);
    let text = texts.get(r.sha);
    if (text === undefined) return;
    const utf16 = recoverUtf16Text(text);
    if (utf16 !== null) text = utf16;
    else if (text.slice(0, 8000).includes("\0")) {
      if (res.binary++ < BLIND_LISTED) res.binaryFiles.push(r.path);
      return;
    }
    res.bytes += Buffer.byteLength(text);
    addText(c, res, r.path, text, opts);
  });
  progress?.(refs.length, refs.length);
  return { files: names.length, res };
}

function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
}

/** Drop ignored fingerprints, deduplicate and sort (file, line, rule); keep the first `budget`. */
export function finish(findings: Finding[], ignore: ReadonlySet<string>, budget = Infinity): Omit<ScanReport, "files" | "commitMessages" | "bytes" | "binary" | "binaryFiles"> {
  const seen = new Map<string, Finding>();
  let suppressed = 0;
  for (const f of findings) {
    if (ignored(ignore, f)) {
      suppressed++;
      continue;
    }
    seen.set(`${f.file}\0${f.line}\0${f.rule}\0${f.snippet}`, f);
  }
  const all = sortFindings([...seen.values()]);
  return { findings: all.slice(0, budget), more: Math.max(0, all.length - budget), suppressed };
}
