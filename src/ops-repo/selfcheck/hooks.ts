/** Hook wiring in a host settings file (Claude Code shape: hooks.<Event>[].hooks[] of {type:"command", command}). */
import { basename, isAbsolute, resolve } from "node:path";
import { parseShell } from "../../lib/shell-lex.ts";

export function hookCommands(settings: unknown): string[] {
  const out: string[] = [];
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  if (!hooks || typeof hooks !== "object") return out;
  for (const groups of Object.values(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const list = (g as { hooks?: unknown })?.hooks;
      if (!Array.isArray(list)) continue;
      for (const h of list) {
        const cmd = (h as { type?: unknown; command?: unknown }) ?? {};
        if (cmd.type === "command" && typeof cmd.command === "string") out.push(cmd.command);
      }
    }
  }
  return out;
}

const expand = (w: string, root: string) => w.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, root);

/**
 * The words of a hook command as the shell splits them (src/hooks/shell-lex.ts, every command of a list in order):
 * quotes joined (`"$CLAUDE_PROJECT_DIR"/hooks/x.sh` is one word) and `$CLAUDE_PROJECT_DIR` expanded to `root` when
 * given. A command the lexer refuses falls back to a whitespace split with simple quote handling.
 */
export function words(cmd: string, root?: string, home = "~"): string[] {
  const p = parseShell(cmd, { vars: root === undefined ? {} : { CLAUDE_PROJECT_DIR: root }, home });
  if (!p.error) return p.pipelines.flat().flatMap((c) => c.words);
  const out = [...cmd.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  return root === undefined ? out : out.map((w) => expand(w, root));
}

/**
 * Problems: a command whose executable does not resolve, a `mogui hook <name>` naming no hook this binary ships,
 * and every shipped hook that no command wires.
 */
export function hookProblems(cmds: readonly string[], root: string, known: readonly string[], isExecutable: (p: string) => boolean, home = "~"): string[] {
  const problems: string[] = [];
  const wired = new Set<string>();
  for (const cmd of cmds) {
    const all = words(cmd, root, home);
    let skip = 0;
    while (skip < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[skip]!)) skip++; // leading VAR=value
    const w = all.slice(skip);
    const exe = w[0] ?? "";
    const at = w.indexOf("hook");
    // `<...mogui...> hook <name>` (a binary path, a shim, or `bun .../src/cli.ts` from a checkout), as hook install writes it.
    if (at > 0 && w.slice(0, at).some((x) => /mogui/.test(basename(x)) || x.endsWith("/src/cli.ts"))) {
      const name = w[at + 1];
      if (!name || !known.includes(name)) problems.push(`unknown mogui hook in '${cmd}'`);
      else wired.add(name);
      if (exe.includes("/") && !isExecutable(isAbsolute(exe) ? exe : resolve(root, exe))) problems.push(`not executable: ${exe}`);
      continue;
    }
    if (!exe.includes("/")) continue; // a bare command name is resolved by the host's PATH
    const p = isAbsolute(exe) ? exe : resolve(root, exe);
    if (!isExecutable(p)) problems.push(`not an executable file: ${exe}`);
  }
  const unwired = known.filter((k) => !wired.has(k));
  if (unwired.length) problems.push(`not wired: ${unwired.join(", ")}`);
  return problems;
}
