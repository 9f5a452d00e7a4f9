/**
 * pr-steward-status (reference §28.6): is a PR ready to merge? Four conditions: checks concluded and green,
 * every review thread resolved and replied to, mergeable with the base branch contained in the head, and the
 * gates re-run, which the API cannot show, so it is always `unverified` and the overall verdict is NOT READY
 * (reference §34.33, kept on purpose: a human confirms the gates).
 */
import type { Ctx } from "../../lib/context.ts";
import { GhError, ghJson } from "./gh.ts";

type CondState = "pass" | "fail" | "unverified";

interface Condition {
  name: string;
  state: CondState;
  detail: string;
}

export interface StewardReport {
  repo: string;
  pr: number;
  conditions: Condition[];
  ready: boolean;
}

const THREADS_QUERY = "query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){nodes{isResolved comments{totalCount}}}}}}";

type Obj = Record<string, unknown>;
const FAILING = new Set(["FAILURE", "TIMED_OUT", "CANCELLED", "ACTION_REQUIRED", "STARTUP_FAILURE", "ERROR"]);

function checksCondition(rollup: unknown): Condition {
  const list = Array.isArray(rollup) ? (rollup as Obj[]) : [];
  let pending = 0;
  let failing = 0;
  for (const c of list) {
    const status = String(c.status ?? "").toUpperCase();
    const concl = String(c.conclusion ?? c.state ?? "").toUpperCase();
    if ((c.status !== undefined && status !== "COMPLETED") || concl === "PENDING" || concl === "EXPECTED" || concl === "") pending++;
    else if (FAILING.has(concl)) failing++;
  }
  const ok = list.length > 0 && pending === 0 && failing === 0;
  return { name: "checks concluded", state: ok ? "pass" : "fail", detail: `${list.length} check(s), ${pending} pending, ${failing} failing` };
}

function threadsCondition(doc: unknown): Condition {
  const nodes = ((((doc as Obj)?.data as Obj)?.repository as Obj)?.pullRequest as Obj)?.reviewThreads as Obj | undefined;
  const list = Array.isArray(nodes?.nodes) ? (nodes!.nodes as Obj[]) : null;
  if (!list) return { name: "review threads resolved and replied", state: "unverified", detail: "review threads not readable" };
  const open = list.filter((t) => t.isResolved !== true).length;
  const unreplied = list.filter((t) => Number((t.comments as Obj | undefined)?.totalCount ?? 0) < 2).length;
  const ok = open === 0 && unreplied === 0;
  return { name: "review threads resolved and replied", state: ok ? "pass" : "fail", detail: `${list.length} thread(s), ${open} unresolved, ${unreplied} without a reply` };
}

function mergeCondition(pr: Obj, compare: Obj | null): Condition {
  const mergeable = String(pr.mergeable ?? "UNKNOWN");
  const behind = compare && typeof compare.behind_by === "number" ? compare.behind_by : null;
  const ok = mergeable === "MERGEABLE" && behind === 0;
  const base = String(pr.baseRefName ?? "main");
  return { name: "mergeable and head contains base", state: ok ? "pass" : "fail", detail: `mergeable=${mergeable}, behind ${base} by ${behind ?? "?"}` };
}

export async function stewardStatus(ctx: Ctx, repo: string, pr: number): Promise<StewardReport> {
  const [owner, name] = repo.split("/") as [string, string];
  const view = (await ghJson(ctx, ["pr", "view", String(pr), "--repo", repo, "--json", "number,headRefOid,baseRefName,mergeable,statusCheckRollup"])) as Obj;
  if (!view || typeof view !== "object") throw new GhError("gh pr view returned no pull request");
  const threads = await ghJson(ctx, ["api", "graphql", "-f", `query=${THREADS_QUERY}`, "-F", `owner=${owner}`, "-F", `name=${name}`, "-F", `number=${pr}`]);
  let compare: Obj | null = null;
  if (typeof view.headRefOid === "string") {
    compare = (await ghJson(ctx, ["api", `repos/${repo}/compare/${String(view.baseRefName ?? "main")}...${view.headRefOid}`])) as Obj;
  }
  const conditions = [checksCondition(view.statusCheckRollup), threadsCondition(threads), mergeCondition(view, compare), { name: "gates re-run", state: "unverified" as const, detail: "not visible from the API; confirm the gates by hand" }];
  return { repo, pr, conditions, ready: conditions.every((c) => c.state === "pass") };
}

export function renderSteward(r: StewardReport): string[] {
  const lines = [`pr: ${r.repo}#${r.pr}`, ...r.conditions.map((c) => `${c.name}: ${c.state.toUpperCase()} (${c.detail})`)];
  const reasons = r.conditions.filter((c) => c.state !== "pass").map((c) => c.name);
  lines.push(r.ready ? "overall: READY" : `overall: NOT READY (${reasons.join("; ")})`);
  return lines;
}

export async function currentRepo(ctx: Ctx): Promise<string> {
  const v = (await ghJson(ctx, ["repo", "view", "--json", "nameWithOwner"])) as Obj;
  if (typeof v?.nameWithOwner !== "string") throw new GhError("gh repo view did not name the repository; pass --repo owner/name");
  return v.nameWithOwner;
}
