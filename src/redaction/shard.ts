/**
 * Large scans use every core: the file list is split, each extra share is scanned by this same program in a child
 * process (`redaction-scan --shard-list <file>`, hidden), and the parent scans its own share meanwhile. A child
 * resolves the rules exactly as the parent did (same env, same -C, same --config) and prints one JSON document.
 * A child that fails makes the whole scan undecided (exit 2), never clean.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { Ctx } from "../lib/context.ts";
import { ok } from "../lib/runner.ts";
import { pathAllowed, scanText, type Compiled, type Finding } from "./engine.ts";
import { ScanFail } from "./rules.ts";
import { readText } from "./sources.ts";

export interface FileRef {
  abs: string;
  shown: string;
  /** A directory walk saw a regular file (see readText). */
  regular?: true;
}

export const SHARD_MIN_FILES = 2000;
const CHILD_TIMEOUT = 30 * 60_000;

/** How many processes: $MOGUI_SCAN_JOBS (1 turns sharding off), else the core count, at most 8. */
export function jobCount(ctx: Pick<Ctx, "env">, files: number): number {
  const raw = ctx.env.MOGUI_SCAN_JOBS?.trim();
  const wanted = raw && /^\d+$/.test(raw) ? Number(raw) : Math.min(8, availableParallelism());
  if (files < SHARD_MIN_FILES) return 1;
  return Math.max(1, Math.min(wanted, Math.floor(files / 500)));
}

export interface ShardResult {
  findings: Finding[];
  bytes: number;
}

/** Scans `files` in this process. */
export function scanShard(c: Compiled, files: readonly FileRef[], progress?: (done: number) => void): ShardResult {
  const findings: Finding[] = [];
  let bytes = 0;
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (progress && (i & 63) === 0) progress(i);
    if (pathAllowed(c, f.shown)) continue;
    const t = readText(f.abs, f.regular === true);
    if (!t) continue;
    bytes += t.bytes;
    const found = scanText(c, f.shown, t.text);
    if (found.length) findings.push(...found);
  }
  return { findings, bytes };
}

const ListSchema = v.array(v.object({ abs: v.string(), shown: v.string(), regular: v.optional(v.literal(true)) }));
const ResultSchema = v.object({
  bytes: v.number(),
  findings: v.array(v.object({ file: v.string(), line: v.number(), rule: v.string(), description: v.string(), snippet: v.string() })),
});

export function readShardList(path: string): FileRef[] {
  const parsed = v.safeParse(ListSchema, JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new ScanFail("shard list is malformed");
  return parsed.output;
}

/** Splits `files` across `jobs` processes; returns every share's result (the first share is this process's). */
export async function scanSharded(
  ctx: Ctx,
  c: Compiled,
  files: readonly FileRef[],
  jobs: number,
  childArgs: string[],
  progress?: (done: number, total: number) => void,
): Promise<ShardResult> {
  const size = Math.ceil(files.length / jobs);
  const shares = Array.from({ length: jobs }, (_, k) => files.slice(k * size, (k + 1) * size));
  const dir = mkdtempSync(join(tmpdir(), "mogui-scan-"));
  try {
    const children = shares.slice(1).map((share, k) => {
      const list = join(dir, `share-${k + 1}.json`);
      writeFileSync(list, JSON.stringify(share), { mode: 0o600 });
      return ctx.runner([...ctx.self, "redaction-scan", ...childArgs, "--shard-list", list], { env: ctx.env, cwd: ctx.cwd, timeoutMs: CHILD_TIMEOUT });
    });
    // The child processes run while this one scans its own share (synchronously).
    const own = scanShard(c, shares[0]!, (i) => progress?.(Math.min(files.length - 1, i * jobs), files.length));
    const out: ShardResult = { findings: [...own.findings], bytes: own.bytes };
    for (const r of await Promise.all(children)) {
      let parsed: v.SafeParseResult<typeof ResultSchema> | null = null;
      try {
        parsed = ok(r) ? v.safeParse(ResultSchema, JSON.parse(r.stdout)) : null;
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        const why = r.stderr.split("\n").find((l) => l.startsWith("redaction-scan: FAIL")) ?? "a scan process failed (engine error, not a finding)";
        throw new ScanFail(why.replace(/^redaction-scan: FAIL — /, ""));
      }
      out.findings.push(...parsed.output.findings);
      out.bytes += parsed.output.bytes;
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
