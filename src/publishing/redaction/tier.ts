/**
 * The scan's hot functions are kept out of JavaScriptCore's top tier (FTL): they run in its optimising middle tier
 * (DFG) for the whole scan. An FTL compile of them costs more CPU than its faster code saves within one scan, and it
 * runs on a compiler thread, for which a parallel scan has no core to spare (every core scans a share). Measured
 * with `bun run bench redaction` on two cores: about 13% less wall time (BUN_JSC_useFTLJIT=0 for the whole process
 * gave the same); a scan in one process: no difference. Each module lists its own hot functions.
 */
import { noFTL } from "bun:jsc";

export function keepOutOfFTL(...fns: Array<(...args: never[]) => unknown>): void {
  for (const f of fns) noFTL(f as (...args: unknown[]) => unknown);
}
