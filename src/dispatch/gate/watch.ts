/** `dispatch-gate watch` (reference §3.11): has a worker's log stopped moving? */
import { statSync } from "node:fs";

type StallStatus = "OK" | "STALLED" | "MISSING";

export interface StallDecision {
  status: StallStatus;
  idle_seconds: number | null;
  last_progress_at: number | null;
  reason: "OK" | "STALLED" | "LOG_MISSING";
}

/** Last progress = the log's mtime; idle strictly greater than maxIdle is a stall. */
export function checkStall(logPath: string, maxIdleSeconds: number, nowSec: number): StallDecision {
  let mtime: number;
  try {
    mtime = statSync(logPath).mtimeMs / 1000;
  } catch {
    return { status: "MISSING", idle_seconds: null, last_progress_at: null, reason: "LOG_MISSING" };
  }
  const idle = nowSec - mtime;
  if (idle > maxIdleSeconds) return { status: "STALLED", idle_seconds: idle, last_progress_at: mtime, reason: "STALLED" };
  return { status: "OK", idle_seconds: idle, last_progress_at: mtime, reason: "OK" };
}
