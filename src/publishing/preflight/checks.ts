/**
 * The host readiness checks of `mogui preflight` (reference §23, D29, D30): each returns lines with a label, a
 * status and a message. Every external command goes through the runner with a timeout; nothing here prints.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { InstanceConfigError, loadInstanceConfig } from "../../lib/config/instance.ts";
import { gatePaths } from "../../dispatch/gate/paths.ts";
import { moguiHome, type Ctx } from "../../lib/context.ts";
import { ok as runOk, type RunResult } from "../../lib/runner.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { parseOrgRules } from "../redaction/config.ts";
import { orgRulesPath } from "../redaction/rules.ts";
import { VERSION } from "../../lib/version.ts";

type Status = "PASS" | "FAIL" | "WARN" | "INFO" | "FIX";

export interface Line {
  status: Status;
  label: string;
  msg: string;
}

export interface Host {
  ctx: Ctx;
  home: string;
  which(name: string): string | null;
  run(argv: string[]): Promise<RunResult>;
  /** Asks before --fix changes anything; false = leave it. */
  confirm(question: string): Promise<boolean>;
  fix: boolean;
  platform: string;
}

const TIMEOUT = 15_000;

export function makeHost(ctx: Ctx, fix: boolean, confirm: (q: string) => Promise<boolean>): Host {
  const home = ctx.env.HOME || homedir();
  return {
    ctx,
    home,
    fix,
    confirm,
    platform: process.platform,
    which: (name) => (name.includes("/") ? (existsSync(name) ? name : null) : Bun.which(name, { PATH: ctx.env.PATH ?? "" })),
    run: (argv) => ctx.runner(argv, { timeoutMs: TIMEOUT, env: ctx.env, cwd: ctx.cwd }),
  };
}

const L = (status: Status, label: string, msg: string): Line => ({ status, label, msg });

function envelope(r: RunResult): Record<string, unknown> | null {
  try {
    const v = JSON.parse(r.stdout);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function checkOrca(h: Host): Promise<{ lines: Line[]; orca: string; ok: boolean }> {
  const orca = resolveOrcaExecutable(h.ctx.env, h.platform, (n) => h.which(n) !== null);
  const lines: Line[] = [L("INFO", "", `resolved Orca CLI: ${orca}`)];
  if (!h.which(orca)) {
    const install = h.platform === "darwin" ? "brew install --cask stablyai/orca/orca" : "download Orca from https://github.com/stablyai/orca/releases";
    lines.push(L("FAIL", "orca", `${orca} not found; install: ${install}; follow-up: enable Settings > Orca CLI > Shell command`));
    return { lines, orca, ok: false };
  }
  if (!/^orca(-dev|-ide)?$/.test(basename(orca))) {
    lines.push(L("FAIL", "orca", `${orca} is not an Orca CLI (expected orca, orca-dev or orca-ide)`));
    return { lines, orca, ok: false };
  }
  const r = await h.run([orca, "status", "--json"]);
  const env = runOk(r) ? envelope(r) : null;
  if (env?.ok !== true) {
    lines.push(L("FAIL", "orca", `${orca} status --json did not report ok (is the Orca app running?)`));
    return { lines, orca, ok: false };
  }
  lines.push(L("PASS", "orca", `${orca} status ok`));
  return { lines, orca, ok: true };
}

export async function checkOrchestration(h: Host, orca: string, orcaOk: boolean): Promise<Line[]> {
  if (!orcaOk) return [L("FAIL", "orchestration", "not checked because Orca status failed")];
  const r = await h.run([orca, "orchestration", "run-current", "--json"]);
  const env = envelope(r);
  const err = env?.error as Record<string, unknown> | undefined;
  if (err?.code === "legacy_read_only" || /"code"\s*:\s*"legacy_read_only"/.test(r.stdout)) {
    return [L("FAIL", "orchestration", "retained legacy coordinator: start a fresh Run with `orca orchestration run-create` and bind this terminal")];
  }
  if (!runOk(r) || env?.ok !== true) return [L("FAIL", "orchestration", "RPC unavailable; update Orca and enable the orchestration capability")];
  const result = (env.result ?? env) as Record<string, unknown>;
  const run = result.run as Record<string, unknown> | null | undefined;
  if (!run) return [L("FAIL", "orchestration", "RPC reachable but no Run is bound to this terminal: run `orca orchestration run-create` (or run-use) first")];
  if (run.legacy === 1 || run.legacy === true) return [L("FAIL", "orchestration", "the bound Run is legacy and inspect-only; create a new Run with `orca orchestration run-create`")];
  return [L("PASS", "orchestration", `Run ${String(run.id ?? "?")} bound`)];
}

function skillRoots(h: Host): string[] {
  const fromEnv = h.ctx.env.ORCA_SKILLS_DIRS?.split(":").filter(Boolean);
  if (fromEnv?.length) return fromEnv.map((d) => resolve(h.ctx.cwd, d));
  return [".claude/skills", ".agents/skills", ".codex/skills", ".config/skills", ".local/share/skills"].map((d) => join(h.home, d));
}

const hasSkill = (roots: string[], id: string) => roots.some((r) => existsSync(join(r, id)));

/**
 * The `skills` CLI: an executable on PATH (never one inside the working directory). `npx` only with --fix: even
 * `npx --no-install` asks the npm registry, and offline it hangs for the whole timeout, so a plain preflight makes
 * no network call (issue 17 §5).
 */
async function skillsList(h: Host): Promise<{ argv: string[]; out: string } | null> {
  const exe = h.which("skills");
  let base: string[] | null = null;
  if (exe && !resolve(exe).startsWith(`${resolve(h.ctx.cwd)}/`)) base = [exe];
  else if (h.fix && h.which("npx")) base = ["npx", "--no-install", "skills"];
  if (!base) return null;
  const r = await h.run([...base, "list", "-g"]);
  return { argv: base, out: runOk(r) ? r.stdout : "" };
}

export async function checkSkills(h: Host): Promise<Line[]> {
  const roots = skillRoots(h);
  if (hasSkill(roots, "orca-cli") && hasSkill(roots, "orchestration")) return [L("PASS", "skills", "orca-cli and orchestration installed")];
  let listed = await skillsList(h);
  const both = (s: string) => /\borca-cli\b/.test(s) && /\borchestration\b/.test(s);
  if (listed && both(listed.out)) return [L("PASS", "skills", "orca-cli and orchestration listed by skills")];
  const install = "skills add stablyai/orca -g --skill orca-cli --skill orchestration";
  const lines: Line[] = [];
  if (h.fix && listed && (await h.confirm(`run \`${install}\` and \`skills update orchestration -g\`?`))) {
    lines.push(L("FIX", "skills", install));
    await h.run([...listed.argv, "add", "stablyai/orca", "-g", "--skill", "orca-cli", "--skill", "orchestration"]);
    lines.push(L("FIX", "skills", "skills update orchestration -g"));
    await h.run([...listed.argv, "update", "orchestration", "-g"]);
    listed = await skillsList(h);
    if (listed && both(listed.out)) return [...lines, L("PASS", "skills", "orca-cli and orchestration installed by --fix")];
  }
  return [...lines, L("FAIL", "skills", `orca-cli and orchestration skills not found; install: ${install} (or run with --fix)`)];
}

const isClaude = (agent: string | undefined) => agent === "claude" || agent === "claude-code";

function pluginManifest(h: Host): string {
  try {
    return readFileSync(join(h.home, ".claude", "plugins", "installed_plugins.json"), "utf8");
  } catch {
    return "";
  }
}

export function checkCodexPlugin(h: Host): Line[] {
  if (!isClaude(h.ctx.env.ORCA_AGENT_CLI)) return [L("INFO", "codex-plugin", "skipped (ORCA_AGENT_CLI is not claude)")];
  if (pluginManifest(h).includes("codex@openai-codex")) return [L("PASS", "codex-plugin", "codex@openai-codex installed")];
  return [L("WARN", "codex-plugin", "codex@openai-codex not installed; /plugin install codex@openai-codex")];
}

const STACK: Array<[string, string, string]> = [
  ["superpowers", "methodology", "without it the master reads the charter as advice rather than procedure"],
  ["ponytail", "restraint", "without it the master over-builds; it pairs with the methodology layer"],
];

export function checkSkillStack(h: Host): Line[] {
  const roots = skillRoots(h);
  const manifest = pluginManifest(h);
  const agent = h.ctx.env.ORCA_AGENT_CLI ?? "the agent";
  return STACK.map(([id, layer, cost]) => {
    if (hasSkill(roots, id) || manifest.includes(`"${id}@`)) return L("PASS", "skill-stack", `${id} (${layer}) installed`);
    const hint = isClaude(h.ctx.env.ORCA_AGENT_CLI) ? `/plugin install ${id}@<marketplace>` : `install the ${id} skill pack for ${agent}`;
    return L("WARN", "skill-stack", `${id} (${layer}) missing: ${cost}; ${hint}`);
  });
}

/** Counts only: rule content is never printed. */
export function checkRedactionExtra(h: Host): Line[] {
  // The same resolution the scan uses (rules.ts: $REDACTION_EXTRA_PATTERNS, else ~/.config/redaction-extra.txt).
  const path = orgRulesPath({ env: { ...h.ctx.env, HOME: h.home }, cwd: h.ctx.cwd });
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [L("FAIL", "redaction-extra", `${path} missing; create it with one rule a line: id|description|regex (RE2 syntax), outside every repository`)];
  }
  const org = parseOrgRules(text);
  const bad = org.unusable + org.re2Rejected.length;
  if (org.rules.length === 0) return [L("FAIL", "redaction-extra", `no usable rules in ${path} (format: id|description|regex)`)];
  if (bad > 0) return [L("FAIL", "redaction-extra", `${bad} of ${org.considered} rules in ${path} are malformed or not RE2; fix them (mogui redaction-scan names RE2 offenders by id)`)];
  return [L("PASS", "redaction-extra", `${org.rules.length} rules load from ${path}`)];
}

function beadsAbove(start: string, home: string): boolean {
  let d = resolve(start);
  for (;;) {
    if (existsSync(join(d, ".beads"))) return true;
    if (d === resolve(home) || d === dirname(d)) return false;
    d = dirname(d);
  }
}

export async function checkBd(h: Host): Promise<Line[]> {
  if (!h.which("bd")) return [L("FAIL", "bd", "bd not found on PATH; install beads (bd)")];
  const r = await h.run(["bd", "where"]);
  if (!runOk(r)) {
    if (beadsAbove(h.ctx.cwd, h.home)) return [L("FAIL", "bd", "bd where failed although a .beads directory exists above this directory")];
    return [L("PASS", "bd", "bd present (no .beads here; not confirmed)")];
  }
  const first = r.stdout
    .split("\n")[0]!
    .trim()
    .replace(/\/\.beads\/?$/, "");
  if (existsSync(join(first, "docs", "MASTER-OPERATIONS.md"))) return [L("PASS", "bd", `beads at ${first}`)];
  return [L("FAIL", "bd", `bd points at ${first}, which is not the ops repository (no docs/MASTER-OPERATIONS.md)`)];
}

export function checkMogui(h: Host): Line[] {
  const home = moguiHome(h.ctx);
  const lines: Line[] = [];
  const target = existsSync(home) ? home : dirname(home);
  try {
    accessSync(target, constants.W_OK);
    lines.push(L("PASS", "mogui", `mogui ${VERSION}; MOGUI_HOME ${home} writable${existsSync(home) ? "" : " (will be created)"}`));
  } catch {
    lines.push(L("FAIL", "mogui", `mogui ${VERSION}; MOGUI_HOME ${home} is not writable`));
  }
  try {
    const cfg = loadInstanceConfig(h.ctx);
    lines.push(L("PASS", "instance-config", cfg.sourcePath ? `${cfg.sourcePath} valid` : `${cfg.configPath} absent (values from the environment)`));
  } catch (e) {
    if (!(e instanceof InstanceConfigError)) throw e;
    lines.push(L("FAIL", "instance-config", e.message));
  }
  return lines;
}

export function checkAgentCli(h: Host): Line[] {
  const agent = h.ctx.env.ORCA_AGENT_CLI?.trim();
  if (!agent) return [L("FAIL", "agent-cli", "ORCA_AGENT_CLI is unset (claude, codex or cursor-agent)")];
  if (!h.which(agent)) return [L("FAIL", "agent-cli", `${agent} (ORCA_AGENT_CLI) not found on PATH`)];
  return [L("PASS", "agent-cli", `${agent} on PATH`)];
}

export function checkWorkerRuntimes(h: Host): Line[] {
  const names = ["codex", "cursor-agent"];
  const present = names.filter((n) => h.which(n));
  if (present.length === 0) return [L("FAIL", "worker-runtime", "neither codex nor cursor-agent on PATH; the master cannot delegate")];
  return names.map((n) => (present.includes(n) ? L("PASS", "worker-runtime", `${n} on PATH`) : L("WARN", "worker-runtime", `${n} missing; ${present[0]} carries every delegation`)));
}

async function versionLine(h: Host, argv: string[]): Promise<string> {
  const r = await h.run(argv);
  return runOk(r) ? (r.stdout.trim().split("\n")[0] ?? "") : "";
}

export async function checkTools(h: Host): Promise<Line[]> {
  const lines: Line[] = [];
  if (h.which("gitleaks")) lines.push(L("PASS", "gitleaks", `gitleaks ${await versionLine(h, ["gitleaks", "version"])}`.trim()));
  else lines.push(L("WARN", "gitleaks", "gitleaks missing (brew install gitleaks); mogui redaction-scan's own engine covers the gate, --engine gitleaks needs it"));
  if (!h.which("ctx")) lines.push(L("WARN", "ctx", "ctx missing; see https://ctx.rs"));
  else lines.push(runOk(await h.run(["ctx", "status"])) ? L("PASS", "ctx", "ctx status ok") : L("WARN", "ctx", "ctx status failed"));
  for (const t of ["git", "gh"]) lines.push(h.which(t) ? L("PASS", t, `${t} on PATH`) : L("FAIL", t, `${t} not found on PATH`));
  if (!h.which("gh")) lines.push(L("WARN", "gh-auth", "not checked: gh missing"));
  else {
    const r = await h.run(["gh", "auth", "status"]);
    const text = `${r.stdout}\n${r.stderr}`;
    if (/Logged in/.test(text) && /workflow/.test(text)) lines.push(L("PASS", "gh-auth", "logged in with the workflow scope"));
    else if (/Logged in/.test(text)) lines.push(L("WARN", "gh-auth", "logged in without the workflow scope: gh auth refresh -s workflow"));
    else lines.push(L("WARN", "gh-auth", "not logged in: gh auth login"));
  }
  return lines;
}

/** D2/D29: the same ledger every command uses (flag-less: $DISPATCH_GATE_LEDGER > $MOGUI_HOME/dispatch-ledger.jsonl). */
export function checkGateLedger(h: Host): Line[] {
  const ledger = gatePaths(h.ctx).ledger;
  const dir = dirname(ledger);
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (isDir) return writable(dir) ? [L("PASS", "gate-ledger", `${ledger} (directory writable)`)] : [L("FAIL", "gate-ledger", `${dir} exists but is not writable`)];
  if (existsSync(dirname(dir)) && writable(dirname(dir))) return [L("PASS", "gate-ledger", `${ledger} (directory will be created)`)];
  return [L("FAIL", "gate-ledger", `${dir} does not exist and cannot be created`)];
}

/**
 * D39: the master cannot write the product when Claude Code's sandbox (layer 1) denies it. Asked of `mogui hook
 * doctor --json` as a subprocess (the hooks family sits above this one), so the verdict is the doctor's own.
 */
export async function checkProtection(h: Host): Promise<Line[]> {
  const r = await h.run([...h.ctx.self, "hook", "doctor", "--json"]);
  let doc: { protected?: boolean; settings_read?: string[]; layers?: { name: string; active: boolean; checks: { name: string; ok: boolean }[] }[] } | null = null;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    doc = null;
  }
  if (!doc || !Array.isArray(doc.layers) || (r.code !== 0 && r.code !== 1)) {
    return [L("WARN", "protection", `mogui hook doctor did not report (${(r.stderr.trim() || `exit ${r.code}`).split("\n")[0]}); run mogui hook doctor`)];
  }
  const on = doc.layers.filter((l) => l.active).map((l) => l.name);
  if (doc.protected) return [L("PASS", "protection", `product protected by Claude Code's sandbox; layers on: ${on.join(", ")} (${(doc.settings_read ?? []).join(", ")})`)];
  const miss = (doc.layers[0]?.checks ?? []).filter((c) => !c.ok).map((c) => c.name);
  return [L("WARN", "protection", `product NOT protected: ${miss.join(", ")}; layers on: ${on.join(", ") || "none"}; run mogui hook doctor`)];
}
