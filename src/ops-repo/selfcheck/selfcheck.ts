/**
 * `harness-selfcheck` (reference §28.4): the boot self-check a master runs in its seat. One line per check (Seat,
 * Skills, Hooks, Card, Tracker, Template); any failed line makes the exit 1, settings that cannot be read make it 2.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { recordedSeat } from "../rehearsal/rehearsal.ts";
import { templateCheck } from "../template/check.ts";
import type { TemplateSource } from "../template/source.ts";
import { hookCommands, hookProblems } from "./hooks.ts";
import { orcaProfileStore, readFolderWorkspaces, type FolderWorkspace } from "./store.ts";

export interface CheckLine {
  name: "Seat" | "Skills" | "Hooks" | "Card" | "Tracker" | "Template";
  ok: boolean;
  detail: string;
}

export interface SelfcheckInput {
  root: string;
  ops: string;
  template: TemplateSource;
  /** Hook names this binary ships (`mogui hook <name>`); each must be wired. */
  knownHooks: readonly string[];
  platform?: string;
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};
const stripId = (s: string) => s.replace(/^id:/, "");

function seat(ctx: Ctx, input: SelfcheckInput): CheckLine {
  const undecided = (why: string): CheckLine => ({ name: "Seat", ok: false, detail: `undecided (${why})` });
  const rsPath = ctx.env.ROLE_STATE_PATH ? resolve(ctx.cwd, ctx.env.ROLE_STATE_PATH) : join(input.ops, "docs/runbooks/role-state.md");
  let text: string;
  try {
    text = readFileSync(rsPath, "utf8");
  } catch {
    return undecided(`role state unreadable: ${rsPath}`);
  }
  const recPath = recordedSeat(text, "absolute path");
  const recId = recordedSeat(text, "workspace id");
  if (!recPath || !recId) return undecided("master seat not recorded in role-state.md");
  const cur = ctx.env.ORCA_WORKSPACE_ID?.trim();
  if (!cur) return undecided("ORCA_WORKSPACE_ID is unset; run inside the master's Orca terminal");
  const curId = stripId(cur);
  const storePath = orcaProfileStore(ctx.env, input.platform);
  const folders = readFolderWorkspaces(storePath);
  let curPath: string | null = null;
  if (curId.startsWith("folder:")) {
    if (!folders) return undecided(`Orca profile store unreadable: ${storePath} (set ORCA_DATA_PATH)`);
    const id = curId.slice("folder:".length);
    curPath = folders.find((f) => f.id === id || f.id === curId)?.folderPath ?? null;
    if (!curPath) return undecided(`workspace ${cur} is not in the Orca profile store`);
  } else if (curId.includes("::")) curPath = curId.slice(curId.indexOf("::") + 2);
  else return undecided(`unrecognised workspace id form: ${cur}`);
  if (real(curPath) !== real(recPath)) return { name: "Seat", ok: false, detail: `MISSEATED — this terminal's workspace ${cur} is ${curPath}; the recorded seat is ${recPath}` };
  const owners = (folders ?? []).filter((f: FolderWorkspace) => !f.isArchived && real(f.folderPath) === real(recPath));
  if (owners.length > 1) {
    return { name: "Seat", ok: false, detail: `AMBIGUOUS — ${recPath} is owned by more than one live workspace (${owners.map((o) => o.id).join(", ")})` };
  }
  const notice = stripId(recId) !== curId ? ` NOTICE — workspace id changed from ${recId} to ${cur}; record the new id in role-state.md` : "";
  return { name: "Seat", ok: true, detail: `${recPath} (${cur}, sole workspace for the recorded path)${notice}` };
}

function skills(input: SelfcheckInput): CheckLine {
  const dir = join(input.ops, "skills");
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
  } catch {
    return { name: "Skills", ok: true, detail: "none shipped by the ops repository" };
  }
  const missing = names.filter((n) => !existsSync(join(input.root, ".claude", "skills", n, "SKILL.md")));
  if (missing.length) return { name: "Skills", ok: false, detail: `not installed under .claude/skills/: ${missing.join(", ")}` };
  return { name: "Skills", ok: true, detail: `${names.length} installed (${names.join(", ") || "none"})` };
}

function hooks(ctx: Ctx, input: SelfcheckInput): CheckLine | "unreadable" {
  const settings = join(input.root, ".claude", "settings.json");
  let cmds: string[];
  try {
    cmds = hookCommands(JSON.parse(readFileSync(settings, "utf8")));
  } catch {
    return "unreadable";
  }
  const isExecutable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const problems = hookProblems(cmds, input.root, input.knownHooks, isExecutable, ctx.env.HOME || "~");
  if (problems.length) return { name: "Hooks", ok: false, detail: problems.join("; ") };
  return { name: "Hooks", ok: true, detail: `${cmds.length} command hook(s) resolve; all ${input.knownHooks.length} mogui hook(s) wired` };
}

function card(input: SelfcheckInput): CheckLine {
  const read = (p: string) => {
    try {
      return readFileSync(p);
    } catch {
      return null;
    }
  };
  const c = read(join(input.ops, "workspace-card", "CLAUDE.md"));
  const a = read(join(input.ops, "workspace-card", "AGENTS.md"));
  if (!c || !a) return { name: "Card", ok: false, detail: "workspace-card/CLAUDE.md or AGENTS.md missing in the ops repository" };
  if (!c.equals(a)) return { name: "Card", ok: false, detail: "workspace-card/CLAUDE.md and AGENTS.md differ" };
  const bad = ["CLAUDE.md", "AGENTS.md"].filter((f) => !read(join(input.root, f))?.equals(c));
  if (bad.length) return { name: "Card", ok: false, detail: `not deployed byte-identical to the workspace root: ${bad.join(", ")}` };
  return { name: "Card", ok: true, detail: "workspace card deployed byte-identical (CLAUDE.md, AGENTS.md)" };
}

/** `bd where` prints a path, or `label: path` lines; the first line naming an existing directory wins. */
export function trackerCandidate(stdout: string, cwd: string): string | null {
  for (const raw of stdout.split("\n")) {
    let line = raw.trim();
    if (!line) continue;
    if (/:\s/.test(line)) line = line.slice(line.indexOf(":") + 1).trim();
    const p = resolve(cwd, line);
    if (existsSync(p) && statSync(p).isDirectory()) return p;
  }
  return null;
}

async function tracker(ctx: Ctx, input: SelfcheckInput): Promise<CheckLine> {
  const want = real(join(input.ops, ".beads"));
  const r = await ctx.runner(["bd", "where"], { cwd: input.root, env: ctx.env, timeoutMs: 10_000 });
  if (r.missing) return { name: "Tracker", ok: false, detail: "bd not found on PATH" };
  if (r.code !== 0) return { name: "Tracker", ok: false, detail: `bd where failed (${r.timedOut ? "timed out" : `exit ${r.code}`})` };
  const cand = trackerCandidate(r.stdout, input.root);
  if (!cand) return { name: "Tracker", ok: false, detail: "bd where named no existing directory" };
  if (real(cand) !== want) return { name: "Tracker", ok: false, detail: `bd resolves to ${cand}, not ${join(input.ops, ".beads")}` };
  const env = ctx.env.BEADS_DIR;
  if (env && real(resolve(input.root, env)) !== want) return { name: "Tracker", ok: false, detail: `BEADS_DIR=${env} disagrees with ${join(input.ops, ".beads")}` };
  return { name: "Tracker", ok: true, detail: `bd resolves to ${join(input.ops, ".beads")}` };
}

function template(input: SelfcheckInput): CheckLine {
  const { report: r, code } = templateCheck(input.ops, input.template);
  const where = input.template.root ? "template on disk" : "embedded template";
  if (code === 0) return { name: "Template", ok: true, detail: `current (${r.installed_version}, ${where})` };
  if (code === 2) return { name: "Template", ok: false, detail: `could not check: ${r.questions_unanswered.join("; ")}` };
  return {
    name: "Template",
    ok: false,
    detail: `DRIFT — installed ${r.installed_version ?? "unknown"}, template ${r.template_version}; absent ${r.absent_required.length}, unknown ${r.unknown_present.length}, symlinks ${r.invalid_paths.length}, adoption notes ${r.adoption_notes.length} (run mogui template check)`,
  };
}

export async function selfcheck(ctx: Ctx, input: SelfcheckInput): Promise<{ lines: CheckLine[]; code: 0 | 1 | 2 }> {
  const h = hooks(ctx, input);
  const lines: CheckLine[] = [seat(ctx, input), skills(input), h === "unreadable" ? { name: "Hooks", ok: false, detail: `settings unreadable: ${join(input.root, ".claude", "settings.json")}` } : h, card(input), await tracker(ctx, input), template(input)];
  const code = h === "unreadable" ? 2 : lines.every((l) => l.ok) ? 0 : 1;
  return { lines, code };
}
