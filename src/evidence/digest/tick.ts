/** One observation tick (reference §12): SENSE, TRIAGE, RECORD, PACE. Read-only except the baseline and the digest file. */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite } from "../acceptance/layout.ts";
import type { Ctx } from "../../lib/context.ts";
import { sortKeys } from "../../lib/output.ts";
import { DigestError, type DigestConfig } from "./config.ts";
import { renderDigest, suggestNextIntervalSeconds } from "./render.ts";
import { collectObservations } from "./sense.ts";
import { baselineWithExpectedUpdates, triageSnapshot, type Baseline, type TriageItem } from "./triage.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export interface TickResult {
  digest: string;
  digestPath: string;
  items: TriageItem[];
  unexplained: number;
  baselineWritten: boolean;
  nextIntervalSeconds: number;
}

function loadBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return {};
    throw new DigestError(`cannot read baseline: ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DigestError(`baseline is not valid JSON: ${path}: ${errorMessage(e)}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new DigestError(`baseline must be a JSON object: ${path}`);
  return raw as Baseline;
}

const baselineText = (b: Baseline) => `${JSON.stringify(sortKeys(b), null, 2)}\n`;

export async function tick(ctx: Pick<Ctx, "runner" | "env">, cfg: DigestConfig, nowMs: number): Promise<TickResult> {
  const baseline = loadBaseline(cfg.baselinePath);
  const snap = await collectObservations(ctx, cfg, nowMs);
  const items = triageSnapshot(snap, baseline);
  const next = baselineWithExpectedUpdates(baseline, items);
  const changed = baselineText(next) !== baselineText(baseline);
  const digest = renderDigest(snap, items, nowMs);
  const digestPath = join(cfg.digestDir, `l1-digest-${Math.floor(nowMs / 1000)}.md`);
  try {
    if (changed) atomicWrite(cfg.baselinePath, baselineText(next));
    mkdirSync(cfg.digestDir, { recursive: true });
    atomicWrite(digestPath, digest);
  } catch (e) {
    throw new DigestError(`cannot write: ${(e as NodeJS.ErrnoException).path ?? ""}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
  return {
    digest,
    digestPath,
    items,
    unexplained: items.filter((i) => i.classification === "unexplained").length,
    baselineWritten: changed,
    nextIntervalSeconds: suggestNextIntervalSeconds(snap),
  };
}
