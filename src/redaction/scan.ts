/**
 * One redaction scan (reference §21, D28) with the native engine: list what the mode covers, validate ranges,
 * scan commit messages and files, drop `.gitleaksignore` fingerprints, deduplicate and sort.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../lib/context.ts";
import { compileRules, pathAllowed, scanText, type Compiled, type Finding } from "./engine.ts";
import { jobCount, scanShard, scanSharded, type FileRef } from "./shard.ts";
import type { LoadedRules } from "./rules.ts";
import { ScanFail } from "./rules.ts";
import { blobsAt, blobTexts, commitMessages, displayPath, expandPathRefs, rangeFiles, rangeResolves, rangeTip, stagedFiles, trackedFiles, type Mode } from "./sources.ts";

export interface ScanRequest {
  mode: Mode;
  /** The repository root (git modes) or the base directory (--paths). */
  root: string;
  range?: string;
  messageRange?: string;
  paths?: readonly string[];
}

export interface ScanReport {
  files: number;
  bytes: number;
  commitMessages: number | null;
  findings: Finding[];
}

export type Progress = (done: number, total: number) => void;

/** `.gitleaksignore`: `[<commit>:]<file>:<rule>:<line>` per line; matched on file, rule and line. */
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

export function fingerprint(f: Finding): string {
  return `${f.file}:${f.rule}:${f.line}`;
}

export function findingLine(f: Finding): string {
  return `  ${f.file}:${f.line}  [${f.rule}] ${f.description}  :: ${f.snippet}`;
}

async function listFiles(ctx: Ctx, req: ScanRequest): Promise<FileRef[]> {
  if (req.mode === "paths") return expandPathRefs(req.root, req.paths ?? []).map((r) => ({ ...r, shown: displayPath(req.root, r.abs) }));
  const rels = req.mode === "tracked" ? await trackedFiles(ctx, req.root) : req.mode === "staged" ? await stagedFiles(ctx, req.root) : await rangeFiles(ctx, req.root, req.range!);
  return rels.map((rel) => ({ abs: join(req.root, rel), shown: rel }));
}

export async function validateRanges(ctx: Ctx, req: ScanRequest): Promise<void> {
  if (req.range && !(await rangeResolves(ctx, req.root, req.range))) throw new ScanFail(`range does not resolve in this repository: ${req.range}`);
  if (req.messageRange && req.messageRange !== req.range && !(await rangeResolves(ctx, req.root, req.messageRange))) {
    throw new ScanFail(`message range does not resolve: ${req.messageRange}`);
  }
}

export async function scanMessages(ctx: Ctx, c: Compiled, root: string, range: string): Promise<{ count: number; findings: Finding[] }> {
  const msgs = await commitMessages(ctx, root, range);
  const findings: Finding[] = [];
  for (const m of msgs) findings.push(...scanText(c, `commit:${m.sha.slice(0, 12)}`, m.body));
  return { count: msgs.length, findings };
}

export async function runNativeScan(ctx: Ctx, rules: LoadedRules, req: ScanRequest, progress?: Progress): Promise<ScanReport> {
  await validateRanges(ctx, req);
  const c = compileRules(rules.set.rules, rules.set.allowlists);
  const findings: Finding[] = [];
  let commitCount: number | null = null;
  const messageRange = req.messageRange ?? (req.mode === "range" ? req.range : undefined);
  if (messageRange) {
    const m = await scanMessages(ctx, c, req.root, messageRange);
    commitCount = m.count;
    findings.push(...m.findings);
  }
  if (req.mode === "staged" || req.mode === "range") {
    const res = await scanCommitted(ctx, c, req, progress);
    findings.push(...res.findings);
    return { files: res.files, bytes: res.bytes, commitMessages: commitCount, findings: finish(findings, readIgnore(req.root)) };
  }
  const files = await listFiles(ctx, req);
  const jobs = jobCount(ctx, files.length);
  const childArgs = ["-C", req.root, ...(rules.configPath ? ["--config", rules.configPath] : [])];
  const res = jobs > 1 ? await scanSharded(ctx, c, files, jobs, childArgs, progress) : scanShard(c, files, (i) => progress?.(i, files.length));
  progress?.(files.length, files.length);
  findings.push(...res.findings);
  return { files: files.length, bytes: res.bytes, commitMessages: commitCount, findings: finish(findings, readIgnore(req.root)) };
}

/** --staged and --range read what git holds (the index, the range's tip), not the working tree. */
async function scanCommitted(ctx: Ctx, c: Compiled, req: ScanRequest, progress?: Progress): Promise<{ files: number; bytes: number; findings: Finding[] }> {
  const names = req.mode === "staged" ? await stagedFiles(ctx, req.root) : await rangeFiles(ctx, req.root, req.range!);
  const refs = await blobsAt(ctx, req.root, req.mode === "staged" ? { index: true } : { rev: rangeTip(req.range!) }, names);
  const texts = await blobTexts(ctx, req.root, refs.filter((r) => !pathAllowed(c, r.path)).map((r) => r.sha));
  const findings: Finding[] = [];
  let bytes = 0;
  refs.forEach((r, i) => {
    if ((i & 63) === 0) progress?.(i, refs.length);
    const text = texts.get(r.sha);
    if (text === undefined || text.slice(0, 8000).includes("\0")) return;
    bytes += Buffer.byteLength(text);
    findings.push(...scanText(c, r.path, text));
  });
  progress?.(refs.length, refs.length);
  return { files: names.length, bytes, findings };
}

/** Drop ignored fingerprints, deduplicate and sort (file, line, rule). */
export function finish(findings: Finding[], ignore: Set<string>): Finding[] {
  const seen = new Map<string, Finding>();
  for (const f of findings) {
    if (ignore.has(fingerprint(f))) continue;
    seen.set(`${f.file}\0${f.line}\0${f.rule}\0${f.snippet}`, f);
  }
  return [...seen.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
}
