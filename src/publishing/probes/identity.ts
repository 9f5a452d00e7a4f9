/**
 * model-identity-probe (reference §19, D27): sample the last N assistant turns of the master's transcript and say,
 * in ONE stdout line, whether they all ran on the expected model. Anything that cannot prove it is exit 2.
 */
import { resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { InstanceConfigError, loadInstanceConfig, requireMasterHostRuntime, requireTranscriptGlob } from "../../lib/config/instance.ts";
import { globFiles, newest } from "./resolve.ts";
import { expandHome } from "../../lib/paths.ts";
import { MISSING, SYNTHETIC, scanTranscript, TranscriptError } from "./transcript.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

const PROBE_ACTION = "propose a clean-spawn succession and review delegation state for sensitive areas";

export interface ProbeOptions {
  transcript?: string;
  runtime?: string;
  config?: string;
  expect?: string;
  /** The raw --limit when it is not a whole number, so the message can quote it. */
  limit: number | string;
}

export interface ProbeResult {
  code: 0 | 2;
  line: string;
}

const drift = (what: string): ProbeResult => ({ code: 2, line: `MODEL-PROBE DRIFT: ${what} — ${PROBE_ACTION}` });

/** `model=count` joined by `, `, count desc then name; `<none>` when empty. */
function distribution(models: readonly string[], sep = ", "): string {
  const counts = countModels(models);
  if (counts.size === 0) return "<none>";
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([m, c]) => `${m}=${c}`)
    .join(sep);
}

function countModels(models: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of models) counts.set(m, (counts.get(m) ?? 0) + 1);
  return counts;
}

class Unresolved extends Error {}

function resolveTranscript(ctx: Ctx, o: ProbeOptions): string {
  if (o.transcript) return resolve(ctx.cwd, expandHome(ctx, o.transcript));
  const envGlob = ctx.env.MOGUI_TRANSCRIPT_GLOB?.trim();
  let pattern: string;
  if (envGlob) pattern = envGlob;
  else {
    const cfg = loadInstanceConfig(ctx, o.config);
    const runtime = o.runtime ?? requireMasterHostRuntime(cfg);
    pattern = requireTranscriptGlob(cfg, runtime);
  }
  const found = newest(globFiles(ctx, pattern));
  if (!found) throw new Unresolved(`no transcript files matched configured glob '${pattern}'`);
  return found;
}

export function runProbe(ctx: Ctx, o: ProbeOptions): ProbeResult {
  if (typeof o.limit !== "number" || !Number.isInteger(o.limit) || o.limit < 1) return drift(`invalid limit - ${o.limit}`);
  const limit = o.limit;
  let path: string;
  try {
    path = resolveTranscript(ctx, o);
  } catch (e) {
    if (e instanceof InstanceConfigError) return drift(`unconfigured - ${e.message}`);
    if (e instanceof Unresolved) return drift(`transcript_error=${e.message}`);
    throw e;
  }
  const tail: string[] = [];
  let scan;
  try {
    scan = scanTranscript(path, (t) => {
      tail.push(t.model);
      if (tail.length > limit) tail.shift();
    });
  } catch (e) {
    const code = errnoCode(e);
    if (e instanceof TranscriptError) return drift(`transcript_error=${e.message}: ${path}`);
    return drift(`transcript_error=cannot read ${path}: ${code ?? errorMessage(e)}`);
  }
  if (scan.format === null && scan.objects > 0) return drift(`unsupported - transcript format not recognised (neither Claude Code nor Codex JSONL): ${path}`);
  const note = scan.malformed ? ` (skipped ${scan.malformed} malformed line${scan.malformed === 1 ? "" : "s"}, first at line ${scan.firstMalformedLine})` : "";
  const real = tail.filter((m) => m !== MISSING && m !== SYNTHETIC);
  if (real.length === 0) {
    const what = tail.length === 0 ? "no assistant turns" : `no real model in the last ${tail.length} assistant turns (${distribution(tail)})`;
    return drift(`undecidable - ${what} in ${path}${note}`);
  }
  const dist = distribution(tail);
  if (!o.expect) {
    return { code: 0, line: `MODEL-PROBE INFO ${dist}${note} — no expected model supplied (--expect or MODEL_IDENTITY_EXPECT); nothing asserted` };
  }
  if (tail.every((m) => m === o.expect)) return { code: 0, line: `MODEL-PROBE OK ${o.expect} ${tail.length}/${tail.length}${note}` };
  return drift(`${dist}${note}`);
}
