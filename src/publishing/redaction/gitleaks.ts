/**
 * `--engine gitleaks` (D28): the same modes and output, with gitleaks doing the matching, one file at a time as the
 * reference did. Organisation rules are appended to a temporary merged config in a private temp dir, removed after.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { Ctx } from "../../lib/context.ts";
import { ok } from "../../lib/runner.ts";
import { contentFingerprint, type Finding } from "./engine.ts";
import { maskLine, maskSecret } from "./mask.ts";
import { embeddedConfigText, ScanFail, type LoadedRules } from "./rules.ts";
import { finish, validateRanges, type Progress, type ScanOptions, type ScanReport, type ScanRequest } from "./scan.ts";
import { blobsAt, blobTexts, commitMessages, displayPath, expandPaths, rangeFiles, rangeTip, readText, stagedFiles, trackedFiles } from "./sources.ts";

const TIMEOUT = 120_000;

const ReportSchema = v.array(
  v.looseObject({
    RuleID: v.string(),
    Description: v.optional(v.string()),
    StartLine: v.optional(v.number()),
    StartColumn: v.optional(v.number()),
    Secret: v.optional(v.string()),
    Match: v.optional(v.string()),
    Line: v.optional(v.string()),
  }),
);

export async function gitleaksVersion(ctx: Ctx): Promise<string | null> {
  const r = await ctx.runner(["gitleaks", "version"], { timeoutMs: 10_000, env: ctx.env });
  if (r.missing) return null;
  return ok(r) ? r.stdout.trim() || "unknown" : "unknown";
}

function tomlString(s: string): string {
  if (!s.includes("'''") && !/[\r\n]/.test(s)) return `'''${s}'''`;
  return JSON.stringify(s);
}

/** The config a delegated run reads: the base file (written out when built in), plus org rules when any loaded. */
export function mergedConfig(dir: string, rules: LoadedRules): string {
  let base = rules.configPath;
  if (!base) {
    base = join(dir, "base.toml");
    writeFileSync(base, embeddedConfigText(), { mode: 0o600 });
  }
  if (rules.orgRules.length === 0) return base;
  const lines = ["[extend]", `path = ${JSON.stringify(base)}`, ""];
  for (const r of rules.orgRules) {
    lines.push("[[rules]]", `id = ${JSON.stringify(r.id.replace(/["']/g, ""))}`, `description = ${JSON.stringify(r.description.replace(/["']/g, ""))}`);
    lines.push(`regex = ${tomlString(r.pattern)}`, "");
  }
  const path = join(dir, "merged.toml");
  writeFileSync(path, lines.join("\n"), { mode: 0o600 });
  return path;
}

function toFindings(reportPath: string, shown: string): Finding[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(reportPath, "utf8"));
  } catch {
    return [];
  }
  const parsed = v.safeParse(ReportSchema, raw);
  if (!parsed.success) throw new ScanFail(`gitleaks wrote a report mogui cannot read for ${shown} (engine error, not a finding)`);
  const seen = new Map<string, number>();
  const sorted = [...parsed.output].sort((a, b) => (a.StartLine ?? 0) - (b.StartLine ?? 0));
  return sorted.map((f) => {
    const line = f.Line ?? f.Match ?? "";
    const secret = f.Secret ?? f.Match ?? "";
    const at = secret ? line.indexOf(secret) : -1;
    const key = `${f.RuleID}\0${secret}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const spans = at >= 0 ? [{ start: at, end: at + secret.length, rule: f.RuleID }] : [{ start: 0, end: line.length, rule: f.RuleID }];
    return {
      file: shown,
      line: f.StartLine ?? 0,
      column: f.StartColumn ?? (at >= 0 ? at + 1 : 1),
      rule: f.RuleID,
      description: f.Description ?? f.RuleID,
      match: maskSecret(secret),
      snippet: maskLine(line, spans),
      fingerprint: contentFingerprint(shown, f.RuleID, secret, n),
    };
  });
}

interface Run {
  ctx: Ctx;
  req: ScanRequest;
  dir: string;
  common: string[];
  findings: Finding[];
  progress?: Progress;
  binary: string[];
}

async function gitleaks(run: Run, argv: string[], report: string, shown: string, what: string, stdin?: string): Promise<void> {
  const r = await run.ctx.runner(["gitleaks", ...argv, ...run.common, "--report-path", report], { stdin, timeoutMs: TIMEOUT, env: run.ctx.env, cwd: run.req.root });
  if (!ok(r)) throw new ScanFail(`gitleaks failed on ${what} (engine error, not a finding)`);
  run.findings.push(...toFindings(report, shown));
}

/** --staged / --range: what git holds (the index, the range's tip), piped to `gitleaks stdin`, as the native engine reads it. */
async function scanBlobs(run: Run): Promise<{ files: number; bytes: number }> {
  const { ctx, req } = run;
  const names = req.mode === "staged" ? await stagedFiles(ctx, req.root) : await rangeFiles(ctx, req.root, req.range!);
  const refs = await blobsAt(ctx, req.root, req.mode === "staged" ? { index: true } : { rev: rangeTip(req.range!) }, names);
  const texts = await blobTexts(
    ctx,
    req.root,
    refs.map((r) => r.sha),
  );
  let bytes = 0;
  for (const [i, ref] of refs.entries()) {
    run.progress?.(i, refs.length);
    const text = texts.get(ref.sha);
    if (text === undefined) continue;
    if (text.slice(0, 8000).includes("\0")) {
      run.binary.push(ref.path);
      continue;
    }
    bytes += Buffer.byteLength(text);
    await gitleaks(run, ["stdin"], join(run.dir, `b${i}.json`), ref.path, ref.path, text);
  }
  return { files: names.length, bytes };
}

/** tracked / --paths: each regular file alone, as the reference did (`gitleaks dir <file>`). */
async function scanFiles(run: Run): Promise<{ files: number; bytes: number }> {
  const { ctx, req } = run;
  const files = req.mode === "paths" ? expandPaths(req.root, req.paths ?? []).map((abs) => ({ abs, shown: displayPath(req.root, abs) })) : (await trackedFiles(ctx, req.root)).map((rel) => ({ abs: join(req.root, rel), shown: rel }));
  let bytes = 0;
  for (const [i, f] of files.entries()) {
    run.progress?.(i, files.length);
    const t = readText(f.abs);
    if (t === "binary") run.binary.push(f.shown);
    if (t === null || t === "binary") continue;
    bytes += t.bytes;
    await gitleaks(run, ["dir", f.abs], join(run.dir, `f${i}.json`), f.shown, f.shown);
  }
  return { files: files.length, bytes };
}

export async function runGitleaksScan(ctx: Ctx, rules: LoadedRules, req: ScanRequest, opts: ScanOptions, progress?: Progress): Promise<ScanReport> {
  await validateRanges(ctx, req);
  const dir = mkdtempSync(join(tmpdir(), "mogui-gitleaks-"));
  try {
    const common = ["--config", mergedConfig(dir, rules), "--no-banner", "--exit-code", "0", "--report-format", "json"];
    const run: Run = { ctx, req, dir, common, findings: [], progress, binary: [] };
    let commitCount: number | null = null;
    const messageRange = req.messageRange ?? (req.mode === "range" ? req.range : undefined);
    if (messageRange) {
      const msgs = await commitMessages(ctx, req.root, messageRange);
      commitCount = msgs.length;
      for (const [i, m] of msgs.entries()) {
        const label = `commit:${m.sha.slice(0, 12)}`;
        await gitleaks(run, ["stdin"], join(dir, `m${i}.json`), label, `commit ${m.sha.slice(0, 12)} message`, m.body);
      }
    }
    const res = req.mode === "staged" || req.mode === "range" ? await scanBlobs(run) : await scanFiles(run);
    progress?.(res.files, res.files);
    const done = finish(run.findings, opts.ignore, opts.budget);
    return { files: res.files, bytes: res.bytes, commitMessages: commitCount, ...done, binary: run.binary.length, binaryFiles: run.binary.slice(0, 100) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
