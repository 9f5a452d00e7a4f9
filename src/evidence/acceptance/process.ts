/**
 * One process result shape for the proposer, the evaluator and the restore command: the reference's return codes
 * (127 missing executable, 124 timeout) so artefacts read the same, and the last meaningful output line.
 */
import type { RunResult } from "../../lib/runner.ts";

const EXIT_MISSING = 127;
const EXIT_TIMEOUT = 124;
const EXIT_SIGNAL = 137;

export function returnCode(r: RunResult): number {
  if (r.missing) return EXIT_MISSING;
  if (r.timedOut) return EXIT_TIMEOUT;
  if (r.code === null) return EXIT_SIGNAL;
  return r.code;
}

function lastLine(text: string): string {
  const lines = text
    .replace(/[\r\n]+$/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  return lines[lines.length - 1] ?? "";
}

/** Last non-empty line of stderr, else of stdout; for failures that printed nothing, a named reason. */
export function tail(r: RunResult, timeoutMs: number): string {
  if (r.missing) return `executable not found: ${r.argv[0] ?? ""}`;
  if (r.timedOut) return `timed out after ${Math.round(timeoutMs / 1000)}s`;
  if (r.signal) return `killed by ${r.signal}`;
  return lastLine(r.stderr) || lastLine(r.stdout);
}

export function processDict(r: RunResult): { argv: string[]; returncode: number; ok: boolean } {
  const rc = returnCode(r);
  return { argv: [...r.argv], returncode: rc, ok: rc === 0 };
}
