/** Hook wiring in a host settings file (Claude Code shape: hooks.<Event>[].hooks[] of {type:"command", command}). */
import { basename, isAbsolute, resolve } from "node:path";

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

/** Whitespace split with simple quote handling: enough to find the executable and a `hook <name>` pair. */
export function words(cmd: string): string[] {
  return [...cmd.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

const expand = (w: string, root: string) => w.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, root);

/**
 * Problems: a command whose executable does not resolve, a `mogui hook <name>` naming no hook this binary ships,
 * and every shipped hook that no command wires.
 */
export function hookProblems(cmds: readonly string[], root: string, known: readonly string[], isExecutable: (p: string) => boolean): string[] {
  const problems: string[] = [];
  const wired = new Set<string>();
  for (const cmd of cmds) {
    const all = words(cmd);
    let skip = 0;
    while (skip < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[skip]!)) skip++; // leading VAR=value
    const w = all.slice(skip);
    const exe = w[0] ? expand(w[0], root) : "";
    const at = w.indexOf("hook");
    // `<...mogui...> hook <name>` (a binary path, a shim, or `bun .../src/cli.ts` from a checkout), as hook install writes it.
    if (at > 0 && w.slice(0, at).some((x) => /mogui/.test(basename(x)) || x.endsWith("/src/cli.ts"))) {
      const name = at >= 0 ? w[at + 1] : undefined;
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
