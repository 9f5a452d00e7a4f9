/**
 * `mogui top`'s data: one refresh reads what mogui already records and what the hosts and git say, and writes
 * nothing. Sources: the jobs ledger (loadJobs), `fleet scan` of the repositories (scanFleet: the dispatch
 * ledger's bindings, the safety verdict, processes, live panes), the workers' own transcripts (read incrementally,
 * cursors in memory only), the spend and dispatch ledgers' tails for the header, `git ls-remote` once per repository.
 * Each host is asked once per refresh: scanFleet's pane lists and top's own status read share one call.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";
import { HerdrClient, HerdrError } from "../../lib/herdr/client.ts";
import { herdrStatus } from "../../lib/host/herdr.ts";
import type { LedgerWarning } from "../../lib/ledger.ts";
import { OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import type { RunResult, Runner } from "../../lib/runner.ts";
import { tailRows } from "../../dispatch/gate/tail.ts";
import { capFor, modelKey, tierOf, tierRank, type TierPolicy } from "../../lib/config/tier-policy.ts";
import { abortKey, isAbortRow, isCheckAllow } from "../../dispatch/gate/window.ts";
import type { HostName } from "../fleet/panes.ts";
import { realOrSelf, type ProcTable } from "../fleet/procs.ts";
import { leaveReason } from "../fleet/reap.ts";
import { FleetRepoError, scanFleet, type FleetScan, type FleetWorktree, type SafetyOptions } from "../fleet/scan.ts";
import { TranscriptLocator } from "../spend/locate.ts";
import { claudeProjectName, claudeProjectsDir } from "../../dispatch/gate/spend-paths.ts";
import { rowCost, type PriceTableT } from "../spend/report.ts";
import { emptyCursor, readUsage, tokenTotal, type CursorState, type ModelUsage } from "../spend/usage.ts";
import { spendPerTier } from "../../dispatch/gate/spend-window.ts";
import { claimedShaFromReport } from "../../workers/worker/push.ts";
import { hasReport, loadJobs, reportPath, type Job } from "../../workers/worker/jobs.ts";
import { classify, GROUPS, type Facts, type PaneStatus } from "./classify.ts";
import type { Reap, TierLine, TopFrame, TopRow, TopTotals } from "./row.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface TopRequest {
  /** The --repo repositories (resolved); the repositories the jobs ledger names are added when they exist. */
  repos: string[];
  jobsLedger: string;
  dispatchLedger: string;
  spendLedger: string;
  prices: PriceTableT | null;
  policy: TierPolicy | null;
  safety: SafetyOptions;
  hosts: HostName[];
  timeoutMs: number;
  concurrency: number;
  remote: string;
  /** How long one `git ls-remote` answer is reused (the remote is a network call). */
  remoteTtlMs: number;
}

/** The argv of a host's list call: the same call within one refresh is made once, whoever asks. */
function hostListKey(argv: readonly string[]): string | null {
  const a = argv.slice(1);
  if ((a[0] === "pane" || a[0] === "agent") && a[1] === "list" && a.length === 2) return a.join(" ");
  if (a[0] === "terminal" && a[1] === "list" && a.length === 3 && a[2] === "--json") return a.join(" ");
  return null;
}

/**
 * A runner for one refresh: host list calls are shared (one per host), everything else goes through. Once
 * `stopped()` (top quit), nothing more is started: each call answers at once as if its executable were missing, so
 * a refresh in flight winds down quickly instead of keeping the process alive.
 */
export function refreshRunner(inner: Runner, stopped: () => boolean = () => false): Runner {
  const memo = new Map<string, Promise<RunResult>>();
  return (argv, opts) => {
    if (stopped()) return Promise.resolve({ argv: [...argv], code: null, signal: null, stdout: "", stderr: "", timedOut: false, missing: true });
    const k = hostListKey(argv);
    if (k === null) return inner(argv, opts);
    let p = memo.get(k);
    if (!p) {
      p = inner(argv, opts);
      memo.set(k, p);
    }
    return p;
  };
}

interface TranscriptTotals {
  cursor: CursorState;
  byModel: Map<string, ModelUsage>;
  /** The model of the newest counted response. */
  lastModel: string | null;
  firstAt: number | null;
  lastAt: number | null;
  size: number;
  ino: number;
}

interface HostView {
  herdr: Map<string, { status: PaneStatus; agent: string | null; cwd: string | null }> | null;
  orca: Map<string, { connected: boolean }> | null;
  problems: string[];
}

const isoMs = (s: string | null): number | null => {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
};

function costOf(byModel: Map<string, ModelUsage>, prices: PriceTableT | null): number | null {
  if (!prices) return null;
  let sum = 0;
  for (const [model, u] of byModel) {
    const c = rowCost({ model, input_tokens: u.input, output_tokens: u.output, cache_read_tokens: u.cache_read, cache_creation_tokens: u.cache_creation }, prices);
    if (c === null) return null;
    sum += c;
  }
  return sum;
}

export class TopSource {
  private usage = new Map<string, TranscriptTotals>();
  private remotes = new Map<string, { at: number; heads: Map<string, string> | null }>();
  private locator: { at: number; loc: TranscriptLocator; claude: Set<string> } | null = null;
  /** The last refresh's scan (the detail pane and the reap action start from it). */
  lastScan: FleetScan | null = null;
  lastJobs = new Map<string, Job>();
  /** The herdr panes the last refresh saw (null: herdr not asked, or it failed). */
  lastHerdrPanes: ReadonlySet<string> | null = null;
  private stopped = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly req: TopRequest,
    private readonly table: ProcTable,
  ) {}

  /** top quits: a refresh in flight starts no more subprocesses. */
  stop(): void {
    this.stopped = true;
  }

  private transcriptsOf(worktree: string, now: number): string[] {
    if (!this.locator || now - this.locator.at > 30_000) {
      let names: Set<string>;
      try {
        names = new Set(readdirSync(claudeProjectsDir(this.ctx)));
      } catch {
        names = new Set();
      }
      this.locator = { at: now, loc: new TranscriptLocator(this.ctx), claude: names };
    }
    // A worktree that is gone and has no Claude Code project costs no lookups (each failed one is an exception).
    if (!existsSync(worktree) && !this.locator.claude.has(claudeProjectName(worktree))) return [];
    return this.locator.loc.forWorktree(worktree);
  }

  /** Read what was appended to a transcript since the last refresh (memory only: nothing is recorded). */
  private read(path: string): TranscriptTotals | null {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      return null;
    }
    let t = this.usage.get(path);
    if (!t || st.size < t.cursor.offset || st.ino !== t.ino) {
      t = { cursor: emptyCursor(), byModel: new Map(), lastModel: null, firstAt: null, lastAt: null, size: 0, ino: st.ino };
      this.usage.set(path, t);
    }
    if (st.size === t.size && t.size > 0) return t;
    const r = readUsage(path, t.cursor);
    t.cursor = r.cursor;
    t.size = st.size;
    for (const [m, u] of r.byModel) {
      const acc = t.byModel.get(m) ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0, responses: 0 };
      acc.input += u.input;
      acc.output += u.output;
      acc.cache_read += u.cache_read;
      acc.cache_creation += u.cache_creation;
      acc.responses += u.responses;
      t.byModel.set(m, acc);
      t.lastModel = m;
    }
    t.firstAt ??= isoMs(r.firstAt);
    t.lastAt = isoMs(r.lastAt) ?? t.lastAt ?? (r.byModel.size ? st.mtimeMs : null);
    return t;
  }

  private async hostView(ctx: Ctx): Promise<HostView> {
    const view: HostView = { herdr: null, orca: null, problems: [] };
    const jobs: Promise<void>[] = [];
    if (this.req.hosts.includes("herdr")) {
      jobs.push(
        new HerdrClient(ctx, this.req.timeoutMs).paneList().then(
          (ps) => {
            view.herdr = new Map(ps.map((p) => [p.pane_id, { status: herdrStatus(p.agent_status, Boolean(p.agent)) as PaneStatus, agent: p.agent ?? null, cwd: p.cwd ?? null }]));
          },
          (e) => {
            if (!(e instanceof HerdrError)) throw e;
            if (e.failure === "missing" || e.herdrCode === "server_not_running") view.herdr = new Map();
            else view.problems.push(`herdr: ${e.message}`);
          },
        ),
      );
    }
    if (this.req.hosts.includes("orca")) {
      jobs.push(
        new OrcaClient(ctx, { timeoutMs: this.req.timeoutMs }).terminalList().then(
          (ts) => {
            view.orca = new Map(ts.map((t) => [t.handle, { connected: (t as { connected?: unknown }).connected !== false }]));
          },
          (e) => {
            if (!(e instanceof OrcaError)) throw e;
            if (e.failure === "missing" || e.orcaCode === "runtime_unavailable") view.orca = new Map();
            else view.problems.push(`orca: ${e.message}`);
          },
        ),
      );
    }
    await Promise.all(jobs);
    return view;
  }

  /** refs/heads/<branch> -> sha on the remote, one `git ls-remote` per repository, reused for remoteTtlMs. */
  private async heads(ctx: Ctx, repo: string, now: number, force: boolean): Promise<Map<string, string> | null> {
    const c = this.remotes.get(repo);
    if (c && !force && now - c.at < this.req.remoteTtlMs) return c.heads;
    const r = await git(ctx, repo, ["ls-remote", "--heads", this.req.remote], this.req.timeoutMs);
    const heads = r.ok
      ? new Map(
          r.stdout
            .split("\n")
            .filter(Boolean)
            .map((l) => {
              const [sha, ref] = l.split("\t");
              return [ref!.replace(/^refs\/heads\//, ""), sha!.trim()] as [string, string];
            }),
        )
      : null;
    this.remotes.set(repo, { at: now, heads });
    return heads;
  }

  async frame(opts: { forceRemote?: boolean; onLedgerWarning?: (w: LedgerWarning) => void } = {}): Promise<TopFrame> {
    const now = this.ctx.now();
    const warnings: string[] = [];
    const ctx: Ctx = { ...this.ctx, runner: refreshRunner(this.ctx.runner, () => this.stopped) };
    const jobs = await loadJobs(ctx, this.req.jobsLedger, "top");
    this.lastJobs = jobs;
    const repos = [...new Set([...this.req.repos, ...[...jobs.values()].map((j) => j.spawn.repo).filter((r): r is string => typeof r === "string" && existsSync(r))])];
    const scanReq = { repos, jobsLedger: this.req.jobsLedger, dispatchLedger: this.req.dispatchLedger, hosts: this.req.hosts, concurrency: this.req.concurrency, timeoutMs: this.req.timeoutMs, safety: this.req.safety, onLedgerWarning: opts.onLedgerWarning };
    const [scan, host] = await Promise.all([
      repos.length
        ? scanFleet(ctx, scanReq, this.table).catch(async (e) => {
            // A repository the jobs ledger names but git no longer knows must not hide the ones asked for.
            if (!(e instanceof FleetRepoError) || repos.length === this.req.repos.length) throw e;
            warnings.push(e.message);
            return this.req.repos.length ? scanFleet(ctx, { ...scanReq, repos: this.req.repos }, this.table) : null;
          })
        : Promise.resolve(null),
      this.hostView(ctx),
    ]);
    this.lastScan = scan;
    this.lastHerdrPanes = host.herdr ? new Set(host.herdr.keys()) : null;
    warnings.push(...host.problems);
    if (scan?.processes_unmeasured) warnings.push(`processes unmeasured: ${scan.processes_unmeasured}`);

    const byWorktree = new Map<string, Job>();
    for (const j of jobs.values()) if (typeof j.spawn.worktree === "string") byWorktree.set(existsSync(j.spawn.worktree) ? realOrSelf(j.spawn.worktree) : j.spawn.worktree, j);
    const rows: TopRow[] = [];
    const used = new Set<string>();
    for (const w of scan?.worktrees ?? []) {
      if (w.main) continue;
      const job = byWorktree.get(realOrSelf(w.path));
      if (job) used.add(job.id);
      rows.push(await this.row(ctx, now, job ?? null, w, scan!, host, opts.forceRemote ?? false));
    }
    for (const j of jobs.values()) {
      if (used.has(j.id)) continue;
      // History stays out: a settled job whose worktree is gone is not something to act on.
      if (j.state !== "running" && !(typeof j.spawn.worktree === "string" && existsSync(j.spawn.worktree))) continue;
      rows.push(await this.row(ctx, now, j, null, null, host, opts.forceRemote ?? false));
    }
    // Dispatches the gate registered whose worktree no record or host places (fleet scan's `unplaced`, once it
    // reconciles bindings): a row each, so they are not invisible.
    const unplaced = (scan as { unplaced?: { binding: { id: string; status: string; state: string }; drift: unknown[] }[] } | null)?.unplaced;
    for (const u of Array.isArray(unplaced) ? unplaced : []) rows.push(unplacedRow(u.binding, u.drift));
    return { rows, totals: this.totals(rows, now, warnings) };
  }

  private async row(ctx: Ctx, now: number, job: Job | null, w: FleetWorktree | null, scan: FleetScan | null, host: HostView, forceRemote: boolean): Promise<TopRow> {
    const s = job?.spawn;
    const worktree = w?.path ?? (typeof s?.worktree === "string" ? s.worktree : null);
    const binding = w?.binding ?? null;
    // The binding's source: a job, a dispatch (lifecycle rows, or a gate register row placed through Orca), or a
    // live terminal or pane that no record knows (it binds the worktree, but there is no record behind it).
    const src = binding?.source as string | undefined;
    const record: Facts["record"] = job || src === "job" ? "job" : src === "dispatch" || src === "register" ? "dispatch" : null;
    const open = job ? job.state === "running" : binding?.state === "open";
    const status = job ? job.state : (binding?.status ?? null);
    // The recorded pane: the job's, else the dispatch's terminal; else a live pane working in the worktree.
    let hostName: string | null = s ? String(s.host || "herdr") : (binding?.terminal?.host ?? null);
    let pane: string | null = s ? String(s.pane_id || "") || null : (binding?.terminal?.id ?? null);
    let paneState: Facts["pane"] = "none";
    let paneStatus: PaneStatus | null = null;
    let agent: string | null = s ? String(s.kind || "") || null : null;
    const look = (h: string, id: string): { found: boolean; measured: boolean; status: PaneStatus | null; agent: string | null } => {
      if (h === "orca") {
        if (!host.orca) return { found: false, measured: false, status: null, agent: null };
        const t = host.orca.get(id);
        return { found: Boolean(t), measured: true, status: t ? (t.connected ? "unknown" : "exited") : null, agent: null };
      }
      if (!host.herdr) return { found: false, measured: false, status: null, agent: null };
      const p = host.herdr.get(id);
      return { found: Boolean(p), measured: true, status: p?.status ?? null, agent: p?.agent ?? null };
    };
    if (hostName && pane && !job?.collected) {
      const l = look(hostName, pane);
      paneState = !l.measured ? "unmeasured" : l.found ? "live" : "gone";
      paneStatus = l.status;
      agent ??= l.agent;
    } else if (w?.panes.length) {
      const p = w.panes[0]!;
      hostName ??= p.host;
      pane ??= p.id;
      const l = look(p.host, p.id);
      paneStatus = l.status;
      agent ??= l.agent;
    } else if (job?.collected) paneState = "gone";

    // Transcripts: tokens, the observed model, activity.
    const transcripts = worktree ? this.transcriptsOf(worktree, now) : [];
    const byModel = new Map<string, ModelUsage>();
    let lastAt: number | null = null;
    let firstAt: number | null = null;
    let lastModel: string | null = null;
    for (const t of transcripts) {
      const u = this.read(t);
      if (!u) continue;
      for (const [m, x] of u.byModel) {
        const acc = byModel.get(m) ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0, responses: 0 };
        acc.input += x.input;
        acc.output += x.output;
        acc.cache_read += x.cache_read;
        acc.cache_creation += x.cache_creation;
        acc.responses += x.responses;
        byModel.set(m, acc);
      }
      if (u.lastAt !== null && (lastAt === null || u.lastAt >= lastAt)) {
        lastAt = u.lastAt;
        lastModel = u.lastModel;
      }
      if (u.firstAt !== null && (firstAt === null || u.firstAt < firstAt)) firstAt = u.firstAt;
    }
    const tokens = transcripts.length ? [...byModel.values()].reduce((a, u) => a + tokenTotal(u), 0) : null;
    const spend = byModel.size ? costOf(byModel, this.req.prices) : null;
    const hours = firstAt !== null ? Math.max((now - firstAt) / 3_600_000, 1 / 60) : null;
    const claimed = s && typeof s.model === "string" ? s.model : null;
    const observed = lastModel && lastModel !== "<missing>" ? lastModel : null;
    const model = observed ?? claimed;

    // Pushed: the claim (the last verify-push, else the report's `Push SHA:` line) against the remote.
    const report = job ? hasReport(job, String(s!.report_file ?? "report.md")) : false;
    const lastPush = job?.pushes.at(-1);
    const claimedSha = (typeof lastPush?.claimed_sha === "string" ? lastPush.claimed_sha : null) ?? (job && report ? claimedShaFromReport(reportPath(job, String(s!.report_file ?? "report.md"))) : null);
    const repo = w?.repo ?? (typeof s?.repo === "string" ? s.repo : null);
    const branch = w?.branch ?? (typeof s?.branch === "string" ? s.branch : null);
    let pushed: boolean | null = null;
    if (claimedSha && repo && branch) {
      const heads = await this.heads(ctx, repo, now, forceRemote);
      pushed = heads ? (heads.get(branch)?.startsWith(claimedSha) ?? false) : false;
    }
    const verdict = job?.verdicts.at(-1);
    const verdictOutcome = typeof verdict?.outcome === "string" ? verdict.outcome : null;

    const why = w && scan ? leaveReason(w, scan) : worktree && existsSync(worktree) ? "not in a scanned repository (add --repo)" : "worktree is gone";
    const reap: Reap = why === null ? { safe: true } : { safe: false, reason: why };
    const ageSeconds = s && typeof s.ts === "number" ? Math.max(0, Math.round(now / 1000 - s.ts)) : (w?.age_seconds ?? null);
    const idleSeconds = lastAt !== null ? Math.max(0, Math.round((now - lastAt) / 1000)) : null;
    const extra = w as (FleetWorktree & { source?: unknown; drift?: unknown }) | null;
    const drift = extra?.drift ?? null;
    const hasDrift = Array.isArray(drift) ? drift.length > 0 : Boolean(drift);
    const j = classify({ record, open, status, pane: paneState, paneStatus, report, verdict: verdictOutcome, idleSeconds, ageSeconds, reapSafe: reap.safe, drift: hasDrift });
    const policyTier = this.req.policy && model ? tierOf(this.req.policy, model) : null;
    return {
      id: job?.id ?? (record ? binding?.id : undefined) ?? basename(worktree ?? "?"),
      source: job ? "job" : record === "dispatch" ? "dispatch" : "worktree",
      host: hostName,
      pane,
      agent,
      model,
      model_claimed: claimed,
      model_observed: observed,
      tier: policyTier,
      job_tier: s && typeof s.tier === "string" ? s.tier : null,
      state: j.state,
      stuck: j.stuck,
      escalated: j.escalated,
      verdict_pending: j.verdictPending,
      group: j.group,
      age_seconds: ageSeconds,
      idle_seconds: idleSeconds,
      tokens,
      spend,
      burn_tokens_per_hour: tokens !== null && hours !== null ? Math.round(tokens / hours) : null,
      burn_spend_per_hour: spend !== null && hours !== null ? spend / hours : null,
      pushed,
      claimed_sha: claimedSha,
      verdict: j.verdictPending && verdictOutcome === null ? "pending" : verdictOutcome,
      reap,
      repo,
      worktree,
      branch,
      brief: s && typeof s.inbox === "string" ? join(s.inbox, "brief.md") : null,
      transcripts,
      binding_source: extra?.source ?? null,
      drift,
    };
  }

  private totals(rows: TopRow[], now: number, warnings: string[]): TopTotals {
    const groups = Object.fromEntries(GROUPS.map((g) => [g, 0])) as TopTotals["groups"];
    for (const r of rows) groups[r.group]++;
    const priced = this.req.prices !== null && rows.every((r) => r.tokens === null || r.tokens === 0 || r.spend !== null);
    return {
      rows: rows.length,
      groups,
      tokens: rows.reduce((a, r) => a + (r.tokens ?? 0), 0),
      spend: priced ? rows.reduce((a, r) => a + (r.spend ?? 0), 0) : null,
      currency: this.req.prices?.currency ?? null,
      burn_tokens_per_hour: rows.reduce((a, r) => a + (r.state === "working" ? (r.burn_tokens_per_hour ?? 0) : 0), 0),
      tiers: this.tiers(now, warnings),
      window_seconds: this.req.policy?.windowSeconds ?? null,
      warnings,
      at: now,
    };
  }

  /** Per tier: agents allowed in the gate window against the fan-out cap, tokens spent against the spend cap. */
  private tiers(now: number, warnings: string[]): TierLine[] {
    const p = this.req.policy;
    if (!p) return [];
    const since = now / 1000 - p.windowSeconds;
    const agents = new Map<string, number>();
    const aborted = new Set<string>();
    let spent: Record<string, number> = {};
    try {
      // Read-only (the gate's own window keeps a cache beside the ledger; top writes nothing): newest first, so a
      // dispatch_aborted row is met before the check row whose slot it gave back (D38).
      tailRows(this.req.dispatchLedger, since, (row) => {
        if (isAbortRow(row)) {
          const k = abortKey(row);
          if (k) aborted.add(k);
          return;
        }
        if (typeof row.ts !== "number" || row.ts < since || !isCheckAllow(row)) return;
        const k = abortKey(row);
        if (k && aborted.has(k)) return;
        const n = typeof row.n_agents === "number" && Number.isInteger(row.n_agents) && row.n_agents > 0 ? row.n_agents : 0;
        const t = typeof row.tier === "string" ? row.tier : tierOf(p, typeof row.model === "string" ? row.model : "");
        agents.set(t, (agents.get(t) ?? 0) + n);
      });
      spent = spendPerTier(this.req.spendLedger, p, since);
    } catch (e) {
      warnings.push(`gate window not read: ${errorMessage(e)}`);
    }
    return tierRank(p)
      .map((tier) => ({ tier, agents: agents.get(tier) ?? 0, cap: capFor(p, tier), spent_tokens: spent[tier] ?? 0, spend_cap: p.spendCaps.get(tier) ?? null }))
      .filter((t) => t.agents > 0 || t.cap !== null || t.spent_tokens > 0 || t.spend_cap !== null);
  }
}

function unplacedRow(b: { id: string; status: string; state: string }, drift: unknown[]): TopRow {
  const j = classify({ record: "dispatch", open: b.state === "open", status: b.status, pane: "none", paneStatus: null, report: false, verdict: null, idleSeconds: null, ageSeconds: null, reapSafe: false, drift: drift.length > 0 });
  return {
    id: b.id,
    source: "dispatch",
    host: null,
    pane: null,
    agent: null,
    model: null,
    model_claimed: null,
    model_observed: null,
    tier: null,
    job_tier: null,
    state: j.state,
    stuck: j.stuck,
    escalated: j.escalated,
    verdict_pending: j.verdictPending,
    group: j.group,
    age_seconds: null,
    idle_seconds: null,
    tokens: null,
    spend: null,
    burn_tokens_per_hour: null,
    burn_spend_per_hour: null,
    pushed: null,
    claimed_sha: null,
    verdict: null,
    reap: { safe: false, reason: "no worktree found for this dispatch" },
    repo: null,
    worktree: null,
    branch: null,
    brief: null,
    transcripts: [],
    binding_source: "register",
    drift,
  };
}

/** The claimed and observed models differ (model ids compare case-insensitively). */
export function modelDiffers(r: Pick<TopRow, "model_claimed" | "model_observed">): boolean {
  return r.model_claimed !== null && r.model_observed !== null && modelKey(r.model_claimed) !== modelKey(r.model_observed);
}
