// harness-selfcheck (reference §28.4): every Seat outcome, hooks wiring, card, tracker lines, store defaults.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../../src/lib/context.ts";
import { stubRunner, type StubReply } from "../../helpers/stub-runner.ts";
import { hookCommands, hookProblems, words } from "../../../src/ops-repo/selfcheck/hooks.ts";
import { selfcheck, trackerCandidate, type SelfcheckInput } from "../../../src/ops-repo/selfcheck/selfcheck.ts";
import { orcaProfileStore, readFolderWorkspaces } from "../../../src/ops-repo/selfcheck/store.ts";
import { planApply, writePlan } from "../../../src/ops-repo/template/apply.ts";
import { embeddedTemplate } from "../../../src/ops-repo/template/source.ts";
import { tempDir } from "../../helpers/paths.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";
import { put } from "../../helpers/files.ts";

const ROLE = (path: string, id: string) => `Current Role: Maintenance\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\nMaster seat (absolute path): \`${path}\`\nMaster seat (workspace id): \`${id}\`\n`;

async function workspace(): Promise<{ root: string; ops: string; store: string; input: SelfcheckInput }> {
  const root = tempDir("mogui-ws-");
  const ops = join(root, "ops");
  mkdirSync(join(ops, ".beads"), { recursive: true });
  const t = await embeddedTemplate();
  writePlan(ops, t, planApply(ops, t), { WORKSPACE_NAME: "acme", WORKSPACE_ROOT: root, OPS_REPO: ops, MONITOR_NS: "a", MODEL_ID: "m", REPO_LIST: "-", RUNTIME_ROOT: "/opt" });
  for (const f of ["CLAUDE.md", "AGENTS.md"]) put(root, f, await Bun.file(join(ops, "workspace-card", f)).text());
  put(ops, "docs/runbooks/role-state.md", ROLE(root, "id:folder:seat-1"));
  put(
    root,
    ".claude/settings.json",
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "mogui hook role-state-inject" }] }], PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "MOGUI_X=1 mogui hook product-path-guard" }] }] } }),
  );
  const store = join(root, "orca-data.json");
  put(
    root,
    "orca-data.json",
    JSON.stringify({
      folderWorkspaces: [
        { id: "seat-1", folderPath: root, isArchived: false },
        { id: "old", folderPath: root, isArchived: true },
      ],
    }),
  );
  return { root, ops, store, input: { root, ops, template: t, knownHooks: ["product-path-guard", "role-state-inject"], platform: "linux" } };
}

function ctx(env: Record<string, string>, bd: StubReply): Ctx {
  return unitCtx({ env, cwd: "/", runner: stubRunner([[["bd", "where"], bd]]) });
}

describe("harness-selfcheck", () => {
  test("a good seat prints every line fine and exits 0", async () => {
    const w = await workspace();
    const r = await selfcheck(ctx({ ORCA_WORKSPACE_ID: "id:folder:seat-1", ORCA_DATA_PATH: w.store }, { stdout: `${join(w.ops, ".beads")}\n` }), w.input);
    expect(r.lines.map((l) => [l.name, l.ok])).toEqual([
      ["Seat", true],
      ["Skills", true],
      ["Hooks", true],
      ["Card", true],
      ["Tracker", true],
      ["Template", true],
    ]);
    expect(r.lines[0]!.detail).toBe(`${w.root} (id:folder:seat-1, sole workspace for the recorded path)`);
    expect(r.code).toBe(0);
  });

  test("Seat outcomes: undecided, MISSEATED, AMBIGUOUS, NOTICE", async () => {
    const w = await workspace();
    const bd = { stdout: `beads: ${join(w.ops, ".beads")}\n` };
    const seat = async (env: Record<string, string>) => (await selfcheck(ctx(env, bd), w.input)).lines[0]!;
    expect((await seat({ ORCA_DATA_PATH: w.store })).detail).toBe("undecided (ORCA_WORKSPACE_ID is unset; run inside the master's Orca terminal)");
    expect((await seat({ ORCA_WORKSPACE_ID: "folder:seat-1", ORCA_DATA_PATH: "/nonexistent/store.json" })).detail).toMatch(/^undecided \(Orca profile store unreadable/);
    expect((await seat({ ORCA_WORKSPACE_ID: "repo1::/elsewhere", ORCA_DATA_PATH: w.store })).detail).toMatch(/^MISSEATED — this terminal's workspace repo1::\/elsewhere is \/elsewhere/);
    put(
      w.root,
      "orca-data.json",
      JSON.stringify({
        folderWorkspaces: [
          { id: "seat-1", folderPath: w.root },
          { id: "seat-2", folderPath: w.root },
        ],
      }),
    );
    expect((await seat({ ORCA_WORKSPACE_ID: "folder:seat-1", ORCA_DATA_PATH: w.store })).detail).toMatch(/^AMBIGUOUS — .* owned by more than one live workspace \(seat-1, seat-2\)/);
    put(w.root, "orca-data.json", JSON.stringify({ folderWorkspaces: [{ id: "seat-9", folderPath: w.root }] }));
    const moved = await seat({ ORCA_WORKSPACE_ID: "folder:seat-9", ORCA_DATA_PATH: w.store });
    expect(moved.ok).toBe(true);
    expect(moved.detail).toContain("NOTICE — workspace id changed from id:folder:seat-1 to folder:seat-9");
    put(w.ops, "docs/runbooks/role-state.md", "Current Role: x\n");
    expect((await seat({ ORCA_WORKSPACE_ID: "folder:seat-9", ORCA_DATA_PATH: w.store })).detail).toBe("undecided (master seat not recorded in role-state.md)");
  });

  test("unreadable settings is exit 2; an unwired hook, card drift and tracker mismatch are exit 1", async () => {
    const w = await workspace();
    const env = { ORCA_WORKSPACE_ID: "id:folder:seat-1", ORCA_DATA_PATH: w.store };
    put(w.root, ".claude/settings.json", "{broken");
    expect((await selfcheck(ctx(env, { stdout: join(w.ops, ".beads") }), w.input)).code).toBe(2);
    put(w.root, ".claude/settings.json", JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "mogui hook role-state-inject" }] }] } }));
    put(w.root, "AGENTS.md", "edited\n");
    const r = await selfcheck(ctx({ ...env, BEADS_DIR: "/tmp" }, { stdout: join(w.ops, ".beads") }), w.input);
    expect(r.code).toBe(1);
    const by = Object.fromEntries(r.lines.map((l) => [l.name, l]));
    expect(by.Hooks!.detail).toBe("not wired: product-path-guard");
    expect(by.Card!.detail).toBe("not deployed byte-identical to the workspace root: AGENTS.md");
    expect(by.Tracker!.detail).toMatch(/^BEADS_DIR=\/tmp disagrees/);
    const missing = await selfcheck(ctx(env, { missing: true }), w.input);
    expect(missing.lines[4]!.detail).toBe("bd not found on PATH");
  });

  test("skills shipped by the ops repository must be installed under the root's .claude/skills", async () => {
    const w = await workspace();
    put(w.ops, "skills/blame/SKILL.md", "x");
    const env = { ORCA_WORKSPACE_ID: "id:folder:seat-1", ORCA_DATA_PATH: w.store };
    const r = await selfcheck(ctx(env, { stdout: join(w.ops, ".beads") }), w.input);
    expect(r.lines[1]).toEqual({ name: "Skills", ok: false, detail: "not installed under .claude/skills/: blame" });
    put(w.root, ".claude/skills/blame/SKILL.md", "x");
    expect((await selfcheck(ctx(env, { stdout: join(w.ops, ".beads") }), w.input)).lines[1]!.ok).toBe(true);
  });
});

describe("helpers", () => {
  test("hook commands and their problems", () => {
    const dir = tempDir();
    put(dir, "hooks/ok.sh", "#!/bin/sh\n");
    chmodSync(join(dir, "hooks/ok.sh"), 0o755);
    put(dir, "hooks/noexec.sh", "");
    const cmds = hookCommands({
      hooks: {
        A: [
          {
            hooks: [
              { type: "command", command: "$CLAUDE_PROJECT_DIR/hooks/ok.sh" },
              { type: "command", command: "hooks/noexec.sh" },
              { type: "prompt", prompt: "x" },
            ],
          },
        ],
        B: [{ hooks: [{ type: "command", command: "/opt/bin/mogui hook nope" }] }],
      },
    });
    expect(cmds).toEqual(["$CLAUDE_PROJECT_DIR/hooks/ok.sh", "hooks/noexec.sh", "/opt/bin/mogui hook nope"]);
    const isExec = (p: string) => p.endsWith("ok.sh") || p === "/opt/bin/mogui";
    expect(hookProblems(cmds, dir, ["guard"], isExec)).toEqual(["not an executable file: hooks/noexec.sh", "unknown mogui hook in '/opt/bin/mogui hook nope'", "not wired: guard"]);
    expect(words(`A=1 "my dir/mogui" hook 'x y'`)).toEqual(["A=1", "my dir/mogui", "hook", "x y"]);
    expect(hookProblems(["/usr/bin/bun /src/mogui/src/cli.ts hook guard", "'/opt/my tools/mogui-0.1' hook other"], dir, ["guard", "other"], () => true)).toEqual([]);
  });

  test("hook commands are split like a shell: a quoted $CLAUDE_PROJECT_DIR prefix, `~`, and command lists", () => {
    const dir = tempDir();
    expect(words(`"$CLAUDE_PROJECT_DIR"/hooks/ok.sh --x`, dir)).toEqual([`${dir}/hooks/ok.sh`, "--x"]);
    const seen: string[] = [];
    const isExec = (p: string) => (seen.push(p), p === `${dir}/hooks/ok.sh` || p === "/h/bin/tool.sh");
    const cmds = [`"$CLAUDE_PROJECT_DIR"/hooks/ok.sh`, "~/bin/tool.sh", `cd "$CLAUDE_PROJECT_DIR" && mogui hook guard`];
    expect(hookProblems(cmds, dir, ["guard"], isExec, "/h")).toEqual([]);
    expect(seen).toEqual([`${dir}/hooks/ok.sh`, "/h/bin/tool.sh"]);
    // A command the lexer refuses still yields words (whitespace split), so the check reports instead of crashing.
    expect(hookProblems([`$CLAUDE_PROJECT_DIR/hooks/x.sh 'unterminated`], dir, [], () => false)).toEqual([`not an executable file: ${dir}/hooks/x.sh`]);
  });

  test("tracker candidate: a bare path or a labelled line naming an existing directory", () => {
    const d = tempDir();
    mkdirSync(join(d, ".beads"));
    expect(trackerCandidate(`noise\nbeads dir: ${join(d, ".beads")}\n`, "/")).toBe(join(d, ".beads"));
    expect(trackerCandidate(".beads\n", d)).toBe(join(d, ".beads"));
    expect(trackerCandidate("nothing here\n", d)).toBeNull();
  });

  test("profile store path: ORCA_DATA_PATH, else the macOS and Linux defaults", () => {
    expect(orcaProfileStore({ ORCA_DATA_PATH: "/x.json", HOME: "/h" }, "darwin")).toBe("/x.json");
    expect(orcaProfileStore({ HOME: "/h" }, "darwin")).toBe("/h/Library/Application Support/orca/profiles/local-default/orca-data.json");
    expect(orcaProfileStore({ HOME: "/h" }, "linux")).toBe("/h/.config/orca/profiles/local-default/orca-data.json");
    expect(orcaProfileStore({ HOME: "/h", XDG_CONFIG_HOME: "/c" }, "linux")).toBe("/c/orca/profiles/local-default/orca-data.json");
    expect(readFolderWorkspaces("/nonexistent")).toBeNull();
  });
});
