/**
 * TRIAGE and RECORD (reference §12). A repo whose state moved since the baseline is an `echo` when a ledger row
 * explains it (same repo, same head, same dirtiness), `expected` on bootstrap or when the baseline pre-announced
 * exactly this state, and `unexplained` otherwise. Only expected items move the baseline.
 */
import { resolve } from "node:path";
import type { RepoState, Snapshot } from "./sense.ts";

type Triage = "echo" | "expected" | "unexplained";

export interface TriageItem {
  name: string;
  classification: Triage;
  summary: string;
  current: RepoState;
}

export interface Baseline {
  repos?: Record<string, RepoState>;
  expected?: { repos?: Record<string, RepoState> };
  [k: string]: unknown;
}

const HEAD_KEYS = ["head", "new_head", "result_head", "after_head", "commit", "sha"];
const DIRTY_KEYS = ["dirty", "result_dirty", "repo_dirty"];
const NAME_KEYS = ["repo", "repo_name", "repository", "name"];
const PATH_KEYS = ["repo_path", "path", "cwd", "worktree"];

const sameState = (a: RepoState | undefined, b: RepoState) => a !== undefined && (a.head ?? null) === b.head && Boolean(a.dirty) === b.dirty;

function mentions(row: Record<string, unknown>, name: string, path: string): boolean {
  if (NAME_KEYS.some((k) => row[k] === name)) return true;
  return PATH_KEYS.some((k) => typeof row[k] === "string" && resolve(row[k] as string) === resolve(path));
}

function explains(row: Record<string, unknown>, cur: RepoState): boolean {
  const head = HEAD_KEYS.map((k) => row[k]).find((x) => typeof x === "string");
  const dirty = DIRTY_KEYS.map((k) => row[k]).find((x) => typeof x === "boolean");
  return (head === undefined || head === cur.head) && (dirty === undefined || dirty === cur.dirty);
}

function summary(name: string, prev: RepoState | undefined, cur: RepoState): string {
  if (!prev) return `${name} baseline bootstrap: head=${cur.head ?? "None"} dirty=${cur.dirty}`;
  return `${name} head ${prev.head ?? "None"} -> ${cur.head ?? "None"}; dirty ${Boolean(prev.dirty)} -> ${cur.dirty}`;
}

export function triageSnapshot(snap: Snapshot, baseline: Baseline): TriageItem[] {
  const items: TriageItem[] = [];
  for (const [name, cur] of Object.entries(snap.repos)) {
    const prev = baseline.repos?.[name];
    if (sameState(prev, cur)) continue;
    let classification: Triage;
    if (snap.ledgerTail.some((row) => mentions(row, name, cur.path) && explains(row, cur))) classification = "echo";
    else if (!prev || sameState(baseline.expected?.repos?.[name], cur)) classification = "expected";
    else classification = "unexplained";
    items.push({ name, classification, summary: summary(name, prev, cur), current: cur });
  }
  return items;
}

/** The baseline after this tick: expected items recorded, their pre-announcements consumed. */
export function baselineWithExpectedUpdates(baseline: Baseline, items: readonly TriageItem[]): Baseline {
  const repos = { ...(baseline.repos ?? {}) };
  const expectedRepos = { ...(baseline.expected?.repos ?? {}) };
  for (const it of items) {
    if (it.classification !== "expected") continue;
    repos[it.name] = it.current;
    delete expectedRepos[it.name];
  }
  return { ...baseline, repos, expected: { ...(baseline.expected ?? {}), repos: expectedRepos } };
}
