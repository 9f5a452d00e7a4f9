/**
 * §7 Recovery Flow 0-6, read-only: it reads files, runs `git` read commands, `pgrep` and `ps`, and writes and
 * signals nothing. Step 0 MISS fails closed (steps 1, 2-3 and 5 are SKIP and nothing else is probed).
 */
import { existsSync, readFileSync } from "node:fs";
import { bootstrap, type BootstrapResult } from "../bootstrap/bootstrap.ts";
import type { ProcessProbe } from "../bootstrap/dual.ts";
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";
import { activeTracks, replayFile, type TrackState } from "../tracks/ledger.ts";
import { filterRunningMonitors, type MonitorProbe } from "./monitors.ts";
import { errorMessage } from "../../lib/errors.ts";

type StepStatus = "OK" | "MISS" | "WARN" | "SKIP";
interface RecoveryStep {
  step: string;
  status: StepStatus;
  evidence: string;
  manual_actions: string[];
}
interface RepositoryObservation {
  path: string;
  head: string;
  branch: string;
  dirty: boolean;
  status: StepStatus;
  evidence: string;
}
interface MonitorObservation {
  pattern: string;
  status: StepStatus;
  matches: string[];
  evidence: string;
}
export interface RecoveryReport {
  steps: RecoveryStep[];
  repositories: RepositoryObservation[];
  monitors: MonitorObservation[];
  active_tracks: TrackState[];
  manual_actions: string[];
}
export interface RecoveryConfig {
  charter: string;
  handoff: string;
  ledger?: string;
  repos?: string[];
  monitorPatterns?: string[];
  sessionId?: string;
}

const step = (id: string, status: StepStatus, evidence: string, manual_actions: string[] = []): RecoveryStep => ({ step: id, status, evidence, manual_actions });

async function step0(cfg: RecoveryConfig, probe: ProcessProbe): Promise<RecoveryStep> {
  if (!existsSync(cfg.charter)) return step("0", "MISS", `Charter missing: ${cfg.charter}`, ["Stop recovery until the charter path is restored."]);
  let b: BootstrapResult;
  try {
    b = await bootstrap({ charter: cfg.charter, handoff: cfg.handoff, sessionId: cfg.sessionId, parentPid: process.ppid }, probe);
  } catch {
    return step("0", "MISS", `Bootstrap failed for charter: ${cfg.charter}`, ["Stop recovery until bootstrap can restore Role State."]);
  }
  if (!b.role_state) return step("0", "WARN", "charter exists; Role State missing", ["Manually restore Role State before acting."]);
  const w = b.warnings.length ? `; warnings=${b.warnings.join(",")}` : "";
  const actions = b.warnings.filter((x) => x.startsWith("DUAL_INSTANCE:")).map((x) => `Session lease warning: ${x}`);
  return step("0", b.warnings.length ? "WARN" : "OK", `charter exists; Role State restored: ${b.role_state.role}${w}`, actions);
}

function step1(cfg: RecoveryConfig): { steps: RecoveryStep[]; tracks: TrackState[] } {
  let text: string;
  try {
    text = readFileSync(cfg.handoff, "utf8");
  } catch {
    return { steps: [step("1", "MISS", `Handoff missing: ${cfg.handoff}`, ["Restore the handoff before continuing recovery."])], tracks: [] };
  }
  const block = text.includes("Current Role:") && text.includes("Role Lock:");
  const body = text.trim() !== "";
  let s1 = step("1", block && body ? "OK" : "WARN", `handoff exists; Role State block ${block ? "present" : "missing"}; body ${body ? "present" : "empty"}`);
  if (!cfg.ledger) return { steps: [s1, step("1-ledger", "SKIP", "work ledger SKIP: no ledger_path")], tracks: [] };
  let replay;
  try {
    replay = replayFile(cfg.ledger);
  } catch (e) {
    replay = { tracks: new Map(), warnings: [`unreadable: ${errorMessage(e)}`], corrupt: [] };
  }
  const tracks = activeTracks(replay);
  if (!replay.warnings.length) return { steps: [s1, step("1-ledger", "OK", `active tracks=${tracks.length}`)], tracks };
  const ev = `active tracks=${tracks.length}; ledger warnings=${replay.warnings.join(",")}`;
  s1 = { ...s1, status: "WARN" };
  return { steps: [s1, step("1-ledger", "WARN", ev)], tracks };
}

async function observeRepo(ctx: Ctx, path: string): Promise<RepositoryObservation> {
  const head = await git(ctx, path, ["rev-parse", "--short=8", "HEAD"], 10_000);
  if (!head.ok) {
    const evidence = head.stderr.trim() || head.stdout.trim() || head.why || "git HEAD unavailable";
    return { path, head: "", branch: "", dirty: false, status: "WARN", evidence };
  }
  const branch = await git(ctx, path, ["branch", "--show-current"], 10_000);
  // --no-optional-locks: a plain `git status` refreshes (rewrites) the index, and recovery must write nothing.
  const status = await git(ctx, path, ["--no-optional-locks", "status", "--porcelain"], 10_000);
  const bad = [branch, status].find((r) => !r.ok);
  return {
    path,
    head: head.stdout.trim(),
    branch: branch.stdout.trim(),
    dirty: status.stdout.trim() !== "",
    status: bad ? "WARN" : "OK",
    evidence: bad ? bad.why : "git state observed",
  };
}

async function observeMonitor(probe: MonitorProbe, pattern: string): Promise<MonitorObservation> {
  const r = await probe(pattern);
  if (r.code === 0) {
    const matches = filterRunningMonitors(r.stdout, pattern);
    if (matches.length) return { pattern, status: "WARN", matches, evidence: `running monitor matches=${matches.length}` };
    return { pattern, status: "OK", matches: [], evidence: "no process found" };
  }
  if (r.code === 1) return { pattern, status: "OK", matches: [], evidence: "no process found" };
  return { pattern, status: "WARN", matches: [], evidence: r.stderr.trim() || r.stdout.trim() || "pgrep failed" };
}

function step6(tracks: TrackState[]): RecoveryStep {
  const recite = tracks.length ? tracks.map((t) => `${t.track_id} (${t.title})`).join(", ") : "none";
  return step("6", "OK", "successor verification checklist generated", [`Recite active tracks: ${recite}`, "Compare predecessor PID command lines before terminating anything.", "Append the succession lineage entry after verification."]);
}

export async function recover(ctx: Ctx, cfg: RecoveryConfig, probes: { process: ProcessProbe; monitor: MonitorProbe }): Promise<RecoveryReport> {
  const s0 = await step0(cfg, probes.process);
  if (s0.status === "MISS") {
    const skip = (id: string) => step(id, "SKIP", "fail-closed after step 0 MISS");
    const s4 = step("4", "WARN", `misses: ${s0.evidence}; Trace Archive search is manual`, ["Trace Archive search is manual; no automatic search was run."]);
    const s6 = step6([]);
    const steps = [s0, skip("1"), skip("2-3"), s4, skip("5"), s6];
    return { steps, repositories: [], monitors: [], active_tracks: [], manual_actions: [s0, s4, s6].flatMap((s) => s.manual_actions) };
  }
  const { steps: s1, tracks } = step1(cfg);
  const repos: RepositoryObservation[] = [];
  for (const p of cfg.repos ?? []) repos.push(await observeRepo(ctx, p));
  const s23 = step("2-3", repos.some((r) => r.status === "WARN") ? "WARN" : "OK", repos.length ? repos.map((r) => `${r.path} head=${r.head} branch=${r.branch} dirty=${r.dirty} status=${r.status}`).join("; ") : "no repo paths configured");
  const misses = [s0, s1[0]!].filter((s) => s.status === "MISS").map((s) => s.evidence);
  misses.push(...repos.filter((r) => r.status === "WARN").map((r) => `${r.path}: ${r.evidence}`));
  const s4 = step("4", misses.length ? "WARN" : "OK", `${misses.length ? `misses: ${misses.join(" | ")}` : "no misses collected"}; Trace Archive search is manual`, ["Trace Archive search is manual; no automatic search was run."]);
  const monitors: MonitorObservation[] = [];
  for (const p of cfg.monitorPatterns ?? []) monitors.push(await observeMonitor(probes.monitor, p));
  const s5 = step(
    "5",
    monitors.some((m) => m.status === "WARN") ? "WARN" : "OK",
    monitors.length ? monitors.map((m) => `${m.pattern}: ${m.evidence}`).join("; ") : "no monitor patterns configured",
    monitors.filter((m) => m.matches.length).map((m) => `Terminate then re-arm monitor pattern '${m.pattern}' after takeover.`),
  );
  const s6 = step6(tracks);
  return {
    steps: [s0, ...s1, s23, s4, s5, s6],
    repositories: repos,
    monitors,
    active_tracks: tracks,
    manual_actions: [s0, s4, s5, s6].flatMap((s) => s.manual_actions),
  };
}
