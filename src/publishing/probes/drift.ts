/**
 * model-drift-audit (reference §20, D27): every assistant turn of a whole session, its model distribution and each
 * model transition. 0 = no transition and no mismatch, 1 = transition or mismatch, 2 = undecidable (every anticipated
 * failure, never 1).
 */
import { basename } from "node:path";
import { MISSING, SYNTHETIC, scanTranscript, TranscriptError, type TranscriptFormat } from "./transcript.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

interface Transition {
  at: string;
  from: string;
  to: string;
}

export interface AuditReport {
  transcript: string;
  format: TranscriptFormat;
  turns: number;
  counts: Map<string, number>;
  transitions: Transition[];
  transitionsIncludingSynthetic: Transition[];
  drift: boolean;
  expect: string | null;
  expectMismatch: boolean;
  malformed: number;
  tornLastLine: boolean;
}

export class AuditFail extends Error {
  override name = "AuditFail";
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** ISO timestamp -> LOCAL `%m-%d %H:%M:%S`; `?` when absent or unparseable. */
function localStamp(iso: string | null): string {
  if (!iso) return "?";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "?";
  return `${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** Tracks transitions as turns stream by: only the previous model is kept, so memory stays constant. */
class Transitions {
  prev: string | null = null;
  list: Transition[] = [];
  push(model: string, at: string | null): void {
    if (this.prev !== null && model !== this.prev) this.list.push({ at: localStamp(at), from: this.prev, to: model });
    this.prev = model;
  }
}

export function audit(path: string, expect: string | null, ignoreSynthetic: boolean): AuditReport {
  const counts = new Map<string, number>();
  const all = new Transitions();
  const real = new Transitions();
  let turns = 0;
  let scan;
  try {
    scan = scanTranscript(path, (t) => {
      turns++;
      counts.set(t.model, (counts.get(t.model) ?? 0) + 1);
      all.push(t.model, t.timestamp);
      if (t.model !== SYNTHETIC) real.push(t.model, t.timestamp);
    });
  } catch (e) {
    if (e instanceof TranscriptError) throw new AuditFail(`cannot read transcript: ${e.message}`);
    throw new AuditFail(`cannot read transcript: ${errnoCode(e) ?? errorMessage(e)}: ${path}`);
  }
  if (scan.format === null && scan.objects > 0) throw new AuditFail(`unsupported transcript format (neither Claude Code nor Codex JSONL): ${basename(path)}, undecidable`);
  if (turns === 0) throw new AuditFail("zero assistant turns, undecidable");
  const realCount = [...counts].filter(([m]) => m !== SYNTHETIC && m !== MISSING).reduce((a, [, c]) => a + c, 0);
  if (realCount === 0) throw new AuditFail(`no real model observed (all ${turns} assistant turns are ${SYNTHETIC} or ${MISSING}), undecidable`);
  const transitions = ignoreSynthetic ? real.list : all.list;
  const expectMismatch = expect !== null && [...counts.keys()].some((m) => m !== SYNTHETIC && m !== MISSING && m !== expect);
  return {
    transcript: path,
    format: scan.format ?? "claude-code",
    turns,
    counts,
    transitions,
    transitionsIncludingSynthetic: all.list,
    drift: transitions.length > 0,
    expect,
    expectMismatch,
    malformed: scan.malformed,
    tornLastLine: scan.tornLastLine,
  };
}

function sortedCounts(counts: Map<string, number>): Array<[string, number]> {
  // Stable: equal counts keep first-seen order (Map iteration order), as the reference's Counter.most_common does.
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export function renderText(r: AuditReport): string[] {
  const dist = sortedCounts(r.counts)
    .map(([m, c]) => `${m}=${c}`)
    .join(" / ");
  const out = [`model-drift-audit: ${basename(r.transcript)}`, `  distribution: ${dist}  (assistant turns ${r.turns})`];
  if (r.transitions.length === 0) out.push("  no transition");
  else {
    out.push(`  transitions: ${r.transitions.length}`);
    for (const t of r.transitions) out.push(`    ${t.at}  ${t.from} -> ${t.to}`);
  }
  if (r.expect !== null) out.push(`  expected ${r.expect}: ${r.expectMismatch ? "MISMATCH" : "match"}`);
  return out;
}

export function renderJson(r: AuditReport): Record<string, unknown> {
  return {
    transcript: r.transcript,
    format: r.format,
    drift: r.drift,
    expect: r.expect,
    expect_mismatch: r.expectMismatch,
    counts: Object.fromEntries(sortedCounts(r.counts)),
    transitions: r.transitions,
    transitions_including_synthetic: r.transitionsIncludingSynthetic,
    assistant_turns: r.turns,
    malformed_lines: r.malformed,
  };
}
