/** Id formats of the real Orca (docs/orca-cli.md §1 "IDs"), so consumers' parsers meet the shapes they will see live. */
import { createHash, randomBytes, randomUUID } from "node:crypto";

export function uuid(): string {
  return randomUUID();
}

/** `run_`, `task_`, `ctx_`, `msg_` + 12 lowercase hex (6 random bytes). */
export function orchId(prefix: "run" | "task" | "ctx" | "msg" | "dlv"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

export function terminalHandle(): string {
  return `term_${randomUUID()}`;
}

export function worktreeId(repoId: string, path: string): string {
  return `${repoId}::${path}`;
}

export function folderWorkspaceId(repoId: string): string {
  return `folder:${repoId}`;
}

/** A hash-looking value for launch tokens and capabilities: consumers only ever compare them. */
export function randomHash(): string {
  return createHash("sha256").update(randomBytes(32)).digest("hex");
}

/** Orchestration rows carry ISO UTC timestamps. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

const BADGE_COLORS = ["#3b82f6", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899"];

export function badgeColor(): string {
  return BADGE_COLORS[randomBytes(1)[0]! % BADGE_COLORS.length]!;
}
