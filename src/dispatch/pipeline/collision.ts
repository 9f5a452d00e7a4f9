/**
 * `dispatch-collision-check` (reference §4.6): a fail-open warning helper. It compares a contract's scope with
 * (a) the files of open PRs in the product's GitHub repo (only when `gh` exists and MOGUI_PRODUCT_GITHUB names the
 * repo, D3) and (b) the scopes of the other contracts in the same directory that the ledger shows dispatched and
 * Orca still shows open. Every failure is silent: the result is only ever a list of warning lines.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as v from "valibot";
import { git } from "../../lib/git.ts";
import type { Ctx } from "../../lib/context.ts";
import { readBackwards } from "../../lib/ledger.ts";
import { ok } from "../../lib/runner.ts";
import { OrcaClient } from "../../lib/orca/client.ts";
import { isSettled } from "../../workers/reap/worker-reap.ts";
import { fileTokens, parseScope, scopeOverlap, type ScopeToken } from "./scope.ts";

export const MAX_DISPATCHES = 64;
const DISPATCH_SHOW_TIMEOUT_MS = 8_000;
const GH_TIMEOUT_MS = 15_000;
/**
 * Each source gets this long in all (wall clock): a slow or hung Orca must not hold a dispatch for 64 x 8 s, nor
 * a slow gh for 100 x 15 s. What is not looked at in time is not warned about (the check is fail-open).
 */
export const ORCA_BUDGET_MS = 30_000;
export const GH_BUDGET_MS = 30_000;
const GIT_TIMEOUT_MS = 15_000;
const MAX_PRS = 100;

export interface Collision {
  owner: string;
  files: string[];
}

export function warningLine(c: Collision): string {
  return `WARNING: scope overlap with ${c.owner} on ${c.files.join(", ")}`;
}

async function trackedFiles(ctx: Ctx): Promise<string[]> {
  const r = await git(ctx, ctx.cwd, ["ls-files", "-z"], GIT_TIMEOUT_MS).catch(() => undefined);
  if (!r?.ok) return [];
  return r.stdout.split("\0").filter(Boolean);
}

const PrList = v.array(v.looseObject({ number: v.number() }));
const PrFiles = v.looseObject({ files: v.array(v.looseObject({ path: v.string() })) });

async function ghJson(ctx: Ctx, args: string[]): Promise<unknown> {
  const r = await ctx.runner(["gh", ...args], { cwd: ctx.cwd, env: ctx.env, timeoutMs: GH_TIMEOUT_MS });
  if (!ok(r)) return undefined;
  try {
    return JSON.parse(r.stdout);
  } catch {
    return undefined;
  }
}

/** (a) Open PRs of MOGUI_PRODUCT_GITHUB. No gh, no repo, any failure: nothing. */
async function prCollisions(ctx: Ctx, mine: ScopeToken[], tracked: string[]): Promise<Collision[]> {
  const repo = ctx.env.MOGUI_PRODUCT_GITHUB?.trim();
  if (!repo) return [];
  const list = v.safeParse(PrList, await ghJson(ctx, ["pr", "list", "--repo", repo, "--state", "open", "--limit", String(MAX_PRS), "--json", "number"]));
  if (!list.success) return [];
  const out: Collision[] = [];
  const deadline = Date.now() + GH_BUDGET_MS;
  for (const pr of list.output) {
    if (Date.now() > deadline) break;
    const files = v.safeParse(PrFiles, await ghJson(ctx, ["pr", "view", String(pr.number), "--repo", repo, "--json", "files"]));
    if (!files.success) continue;
    const hit = scopeOverlap(mine, fileTokens(files.output.files.map((f) => f.path)), tracked);
    if (hit.length) out.push({ owner: `PR #${pr.number}`, files: hit });
  }
  return out;
}

function sha256File(path: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null;
  }
}

/** The other `*.md` contracts beside this one, by content hash (what the ledger's contract_sha is). */
function siblingContracts(contractPath: string): Map<string, string> {
  const dir = dirname(contractPath);
  const self = resolve(contractPath);
  const out = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (!name.endsWith(".md") || resolve(p) === self) continue;
    try {
      if (!statSync(p).isFile()) continue;
    } catch {
      continue;
    }
    const sha = sha256File(p);
    if (sha && !out.has(sha)) out.set(sha, p);
  }
  return out;
}

interface Dispatched {
  task: string;
  contract: string;
}

/** The newest registered dispatches (ALLOW rows with job_id and orchestration_task) of sibling contracts. */
async function dispatchedSiblings(ledgerPath: string, siblings: Map<string, string>): Promise<Dispatched[]> {
  const out: Dispatched[] = [];
  const tasks = new Set<string>();
  let seen = 0;
  for await (const { row } of readBackwards(ledgerPath)) {
    if (row.decision !== "ALLOW" || typeof row.job_id !== "string" || typeof row.orchestration_task !== "string" || !row.orchestration_task) continue;
    if (++seen > MAX_DISPATCHES) break;
    const contract = typeof row.contract_sha === "string" ? siblings.get(row.contract_sha.toLowerCase()) : undefined;
    const key = `${row.orchestration_task}\0${contract}`;
    if (!contract || tasks.has(key)) continue;
    tasks.add(key);
    out.push({ task: row.orchestration_task, contract });
  }
  return out;
}

async function isOpen(orca: OrcaClient, task: string): Promise<boolean> {
  try {
    const d = await orca.dispatchShow(task);
    return Boolean(d?.status.trim() && !isSettled(d.status));
  } catch {
    return false;
  }
}

/** (b) Other contracts of this directory that are dispatched and still open. */
async function contractCollisions(ctx: Ctx, contractPath: string, ledgerPath: string, mine: ScopeToken[], tracked: string[]): Promise<Collision[]> {
  const siblings = siblingContracts(contractPath);
  if (siblings.size === 0) return [];
  const orca = new OrcaClient(ctx, { timeoutMs: DISPATCH_SHOW_TIMEOUT_MS });
  const out: Collision[] = [];
  const open = new Map<string, Promise<boolean>>();
  const deadline = Date.now() + ORCA_BUDGET_MS;
  const isOpenOnce = (task: string) => open.get(task) ?? open.set(task, isOpen(orca, task)).get(task)!;
  for (const d of await dispatchedSiblings(ledgerPath, siblings)) {
    let theirs: ScopeToken[];
    try {
      theirs = parseScope(readFileSync(d.contract, "utf8"));
    } catch {
      continue;
    }
    const hit = scopeOverlap(mine, theirs, tracked);
    if (!hit.length) continue;
    if (Date.now() > deadline) break;
    if (!(await isOpenOnce(d.task))) continue;
    out.push({ owner: `${basename(d.contract)} (task ${d.task})`, files: hit });
  }
  return out;
}

async function silently<T>(p: () => Promise<T[]>): Promise<T[]> {
  try {
    return await p();
  } catch {
    return [];
  }
}

/** Every overlap found; never throws. */
export async function collisionCheck(ctx: Ctx, contractPath: string, ledgerPath: string): Promise<Collision[]> {
  let mine: ScopeToken[];
  try {
    mine = parseScope(readFileSync(contractPath, "utf8"));
  } catch {
    return [];
  }
  if (mine.length === 0) return [];
  const tracked = await silently(() => trackedFiles(ctx));
  const prs = await silently(() => prCollisions(ctx, mine, tracked));
  const contracts = await silently(() => contractCollisions(ctx, contractPath, ledgerPath, mine, tracked));
  return [...prs, ...contracts];
}
