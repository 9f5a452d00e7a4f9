/**
 * `onboarding-rehearsal` (reference §28.3): a read-only postcondition table for a founded workspace. P01-P08 are
 * file facts; L01-L02 need the live host (GAP unless --live). Evidence strings never carry an absolute path.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseInstanceConfig } from "../../lib/config/instance.ts";
import type { Ctx } from "../../lib/context.ts";
import { OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { scanOps } from "../template/check.ts";
import { placeholderTokens } from "../template/paths.ts";
import type { TemplateSource } from "../template/source.ts";
import { templateVersion } from "../template/source.ts";
import { validateDescriptor } from "./descriptor.ts";
import { PathNamer } from "./names.ts";
import { errorMessage } from "../../lib/errors.ts";

type Status = "PASS" | "FAIL" | "GAP";
export interface Row {
  id: string;
  expected: string;
  observed: string;
  status: Status;
  evidence: string;
}

export interface RehearsalInput {
  root: string;
  ops: string;
  template: TemplateSource;
  descriptorPath: string;
  instancePath: string;
  live: boolean;
}

/** `| NN | `onboarding/<f>.md` |` rows of a router. */
export function routerRows(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\|\s*[A-Za-z0-9]+\s*\|\s*`onboarding\/([^`/]+\.md)`\s*\|/gm)) out.push(m[1]!);
  return out;
}

function read(p: string): Buffer | null {
  try {
    return readFileSync(p);
  } catch {
    return null;
  }
}

function row(id: string, expected: string, ok: boolean, observed: string, evidence: string): Row {
  return { id, expected, observed, status: ok ? "PASS" : "FAIL", evidence };
}

function p01(t: TemplateSource): Row {
  const exp = "ONBOARDING.md router rows list exactly the onboarding/*.md stage files";
  const router = t.read("ONBOARDING.md");
  const stages = t
    .list()
    .filter((f) => /^onboarding\/[^/]+\.md$/.test(f))
    .map((f) => f.slice("onboarding/".length))
    .sort();
  const where = `template ${t.root ? "on disk" : "embedded"} ${safeVersion(t)}`;
  if (!router) return row("P01", exp, false, "ONBOARDING.md missing", where);
  const rows = routerRows(new TextDecoder().decode(router));
  const missing = stages.filter((s) => !rows.includes(s));
  const extra = rows.filter((r) => !stages.includes(r));
  const dup = rows.length !== new Set(rows).size;
  const ok = !missing.length && !extra.length && !dup;
  const obs = ok ? `${rows.length} rows = ${stages.length} stage files` : `unrouted: [${missing.join(", ")}] dangling: [${extra.join(", ")}]${dup ? " duplicate rows" : ""}`;
  return row("P01", exp, ok, obs, where);
}

function safeVersion(t: TemplateSource): string {
  try {
    return templateVersion(t);
  } catch {
    return "(version unreadable)";
  }
}

function p02(ops: string): Row {
  const exp = "no unresolved {{PLACEHOLDER}} token in the ops repository's .md/.json/.txt files";
  const bad: string[] = [];
  const files = scanOps(ops).files.filter((f) => /\.(md|json|txt)$/.test(f));
  for (const f of files) {
    const bytes = read(join(ops, f));
    if (!bytes) continue;
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      bad.push(`${f} (invalid UTF-8)`);
      continue;
    }
    const toks = placeholderTokens(text);
    if (toks.length) bad.push(`${f} ({{${[...new Set(toks)].join("}}, {{")}}})`);
  }
  const shown = bad.slice(0, 5).join("; ") + (bad.length > 5 ? `; +${bad.length - 5} more` : "");
  return row("P02", exp, bad.length === 0, bad.length ? `${bad.length} file(s) unresolved` : `${files.length} file(s) clean`, bad.length ? shown : "<ops-repo>");
}

function same(a: string, b: string, id: string, exp: string, names: PathNamer): Row {
  const x = read(a);
  const y = read(b);
  const ev = `${names.name(a)} vs ${names.name(b)}`;
  if (!x || !y) return row(id, exp, false, `${!x ? names.name(a) : names.name(b)} missing`, ev);
  return row(id, exp, x.equals(y), x.equals(y) ? "byte-identical" : "bytes differ", ev);
}

function p05(input: RehearsalInput, names: PathNamer): Row {
  const exp = "workspace descriptor valid and its workspace_root is this workspace root";
  const text = read(input.descriptorPath);
  const ev = names.name(input.descriptorPath);
  if (!text) return row("P05", exp, false, "descriptor missing or unreadable", ev);
  try {
    const facts = validateDescriptor(text.toString("utf8"));
    if (!facts.workspaceRoot) return row("P05", exp, false, "workspace_root is null", ev);
    const declared = existsSync(facts.workspaceRoot) ? realpathSync(facts.workspaceRoot) : resolve(facts.workspaceRoot);
    const ok = declared === realpathSync(input.root);
    return row("P05", exp, ok, ok ? `valid; ${facts.repositories} repositories; root matches` : `workspace_root is ${names.name(facts.workspaceRoot)}`, ev);
  } catch (e) {
    return row("P05", exp, false, errorMessage(e), ev);
  }
}

function p06(input: RehearsalInput, names: PathNamer): Row {
  const exp = "instance runtime config names a non-blank master_host_runtime";
  const text = read(input.instancePath);
  const ev = names.name(input.instancePath);
  if (!text) return row("P06", exp, false, "instance runtime config missing or unreadable", ev);
  try {
    const c = parseInstanceConfig(text.toString("utf8"), "instance-runtime.json");
    const ok = Boolean(c.masterHostRuntime?.trim());
    return row("P06", exp, ok, ok ? `master_host_runtime = ${c.masterHostRuntime}` : "master_host_runtime is blank or null", ev);
  } catch (e) {
    return row("P06", exp, false, errorMessage(e), ev);
  }
}

const ROLE_FIELDS = ["Current Role:", "Role Lock:", "Frozen:", "Unlock:"];

function p07(ops: string): Row {
  const exp = "docs/runbooks/role-state.md exists with the four Role State fields";
  const text = read(join(ops, "docs/runbooks/role-state.md"))?.toString("utf8");
  if (text === undefined) return row("P07", exp, false, "missing", "<ops-repo>/docs/runbooks/role-state.md");
  const absent = ROLE_FIELDS.filter((f) => !text.split("\n").some((l) => l.trimStart().startsWith(f)));
  return row("P07", exp, absent.length === 0, absent.length ? `missing fields: ${absent.join(" ")}` : "present; 4 fields", "<ops-repo>/docs/runbooks/role-state.md");
}

function p08(ops: string): Row {
  const ok = existsSync(join(ops, "docs/lineage/MASTER-LINEAGE.md"));
  return row("P08", "docs/lineage/MASTER-LINEAGE.md exists", ok, ok ? "present" : "missing", "<ops-repo>/docs/lineage/MASTER-LINEAGE.md");
}

/** The recorded master seat selector (`Master seat (workspace id): `...``) from role-state.md. */
export function recordedSeat(text: string | undefined, label = "workspace id"): string | null {
  if (!text) return null;
  const m = new RegExp(`Master seat \\(${label.replace(/[()]/g, "\\$&")}\\):\\s*\`([^\`]+)\``).exec(text);
  const v = m?.[1]?.trim();
  return v && !v.startsWith("{{") && !v.startsWith("(") ? v : null;
}

async function l01(ctx: Ctx, input: RehearsalInput): Promise<Row> {
  const exp = "exactly one live terminal in the recorded master seat";
  if (!input.live) return { id: "L01", expected: exp, observed: "not measured", status: "GAP", evidence: "run with --live" };
  const seat = recordedSeat(read(join(input.ops, "docs/runbooks/role-state.md"))?.toString("utf8"));
  if (!seat) return { id: "L01", expected: exp, observed: "no seat recorded", status: "GAP", evidence: "role-state.md has no 'Master seat (workspace id)' value" };
  const selector = seat.startsWith("folder:") ? `id:${seat}` : seat;
  try {
    const terms = await new OrcaClient(ctx, { timeoutMs: 15_000 }).terminalList(selector);
    return row("L01", exp, terms.length === 1, `${terms.length} terminal(s)`, `orca terminal list --worktree ${selector}`);
  } catch (e) {
    if (e instanceof OrcaError && (e.failure === "missing" || e.failure === "timeout" || e.failure === "signal")) {
      return { id: "L01", expected: exp, observed: "not measurable", status: "GAP", evidence: e.message };
    }
    return row("L01", exp, false, "terminal list failed", errorMessage(e));
  }
}

export async function rehearse(ctx: Ctx, input: RehearsalInput): Promise<Row[]> {
  const names = new PathNamer(ctx, input.root, input.ops);
  const rows: Row[] = [
    p01(input.template),
    p02(input.ops),
    same(join(input.ops, "CLAUDE.md"), join(input.ops, "AGENTS.md"), "P03", "ops CLAUDE.md and AGENTS.md byte-identical", names),
    same(join(input.root, "CLAUDE.md"), join(input.ops, "workspace-card", "CLAUDE.md"), "P04", "workspace root CLAUDE.md is the deployed workspace card", names),
    p05(input, names),
    p06(input, names),
    p07(input.ops),
    p08(input.ops),
    await l01(ctx, input),
    {
      id: "L02",
      expected: "Generation 1 boot smoke answered its founding task with worker_done",
      observed: "not measurable read-only",
      status: "GAP",
      evidence: "confirm in the orchestration mailbox and the master transcript",
    },
  ];
  return rows.map((r) => ({ ...r, observed: names.scrub(r.observed), evidence: names.scrub(r.evidence) }));
}
