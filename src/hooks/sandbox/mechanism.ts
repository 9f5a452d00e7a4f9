/**
 * `mogui sandbox`: which kernel mechanism makes paths read-only for a command on this host, and the argv or profile
 * that asks it to (DECISIONS D39). Linux: bubblewrap (the whole file system bound as it is, each denied path bound
 * read-only over itself, each ancestor of a denied path bound over itself so it cannot be renamed or removed while
 * the command runs). macOS: `sandbox-exec` with a generated profile. Landlock is not used (see docs/hooks.md: it
 * needs raw syscalls, which Bun cannot make without FFI, and it only allows, so "everything but P" would have to be
 * spelled as every sibling along P's path).
 */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { errnoCode } from "../../lib/errors.ts";

export type Platform = NodeJS.Platform;
type MechanismName = "bubblewrap" | "sandbox-exec";

export interface Mechanism {
  name: MechanismName;
  /** The executable's path. */
  path: string;
}

/** Linux and macOS have a mechanism; the install hint names the package. */
const INSTALL_HINT: Partial<Record<Platform, string>> = {
  linux: "bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)",
  darwin: "sandbox-exec is missing (it ships with macOS in /usr/bin; restore it, this host cannot sandbox)",
};

/** The one line `sandbox run` / `check` print when no mechanism exists on this host. */
export function missingLine(platform: Platform): string {
  return INSTALL_HINT[platform] ?? `no sandbox mechanism on ${platform}: only Linux (bubblewrap) and macOS (sandbox-exec) are supported`;
}

function executable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `pathVar` (a name with a slash is taken as is). */
export function findExecutable(name: string, pathVar: string | undefined, cwd: string): string | null {
  if (name.includes("/")) {
    const p = resolve(cwd, name);
    return executable(p) ? p : null;
  }
  for (const d of (pathVar ?? "").split(delimiter)) {
    if (!d) continue;
    const p = join(resolve(cwd, d), name);
    if (executable(p)) return p;
  }
  return null;
}

/** The mechanism on this platform, found on PATH (macOS: also /usr/bin/sandbox-exec); null when none. */
export function detectMechanism(platform: Platform, pathVar: string | undefined, cwd: string): Mechanism | null {
  if (platform === "linux") {
    const p = findExecutable("bwrap", pathVar, cwd);
    return p ? { name: "bubblewrap", path: p } : null;
  }
  if (platform === "darwin") {
    const p = findExecutable("sandbox-exec", pathVar, cwd) ?? (executable("/usr/bin/sandbox-exec") ? "/usr/bin/sandbox-exec" : null);
    return p ? { name: "sandbox-exec", path: p } : null;
  }
  return null;
}

export class DenyPathError extends Error {}

/**
 * The denied paths as real absolute paths (symlinks resolved), duplicates and paths inside another denied path
 * dropped, shortest first. A path that does not exist is an error: a sandbox must not silently protect nothing.
 */
export function resolveDenyPaths(paths: readonly string[], cwd: string): string[] {
  const real: string[] = [];
  for (const p of paths) {
    let r: string;
    try {
      r = realpathSync(resolve(cwd, p));
    } catch (e) {
      const code = errnoCode(e);
      throw new DenyPathError(`--deny-write ${p}: ${code === "ENOENT" ? "no such file or directory" : code === "ELOOP" ? "symlink loop" : (code ?? "cannot resolve")}`);
    }
    real.push(r);
  }
  return minimalPaths(real);
}

const inside = (p: string, root: string) => p === root || root === sep || p.startsWith(`${root}${sep}`);

/** Sorted, duplicates and nested paths removed. */
export function minimalPaths(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const out: string[] = [];
  for (const p of sorted) if (!out.some((r) => inside(p, r))) out.push(p);
  return out;
}

/** Every proper ancestor of the denied paths below `/`, outermost first, none inside a denied path. */
export function ancestorsOf(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    for (let d = dirname(p); d !== sep && d !== dirname(d); d = dirname(d)) out.add(d);
  }
  return [...out].filter((d) => !paths.some((p) => inside(d, p))).sort((a, b) => a.split(sep).length - b.split(sep).length || (a < b ? -1 : 1));
}

/**
 * bubblewrap's argv up to (not including) the command: `/` as it is (devices, /tmp and every other mount included),
 * each ancestor bound over itself (a mount point cannot be renamed or removed: EBUSY), each denied path read-only
 * over itself, a pid namespace with a fresh /proc, no capabilities. `--die-with-parent`: the command does not outlive mogui. The
 * status fd reports the pid of the namespace's init (whose one child is the command) and, once it ran, its exit code.
 */
export function bwrapArgv(bwrap: string, denied: readonly string[], cwd: string, statusFd?: number): string[] {
  const argv = [bwrap, "--dev-bind", "/", "/"];
  for (const a of ancestorsOf(denied)) argv.push("--dev-bind", a, a); // --bind would add nodev (a product under /dev/shm)
  for (const p of denied) argv.push("--ro-bind", p, p);
  // A pid namespace with its own /proc: with the host's /proc, /proc/<pid>/root and /proc/<pid>/cwd of any process
  // outside (the shell that started us) lead back to the unprotected mounts.
  argv.push("--unshare-pid", "--proc", "/proc");
  // No capabilities, even when started by root (bubblewrap keeps root's by default): with CAP_SYS_ADMIN the command
  // could simply unmount the read-only binds (`umount -l P`) or remount them read-write.
  argv.push("--cap-drop", "ALL");
  argv.push("--die-with-parent", "--chdir", cwd);
  if (statusFd !== undefined) argv.push("--json-status-fd", String(statusFd));
  argv.push("--");
  return argv;
}

/** A string literal in the sandbox profile language (SBPL): double quotes, backslash escapes. */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * The macOS profile: everything allowed, writes denied at and below each path, and writes to each ancestor's own
 * entry (rename, remove, chmod) denied, so the product cannot be moved away from its path.
 */
export function macProfile(denied: readonly string[]): string {
  const lines = ["(version 1)", "(allow default)"];
  for (const p of denied) lines.push(`(deny file-write* (subpath ${sbplString(p)}))`);
  for (const a of ancestorsOf(denied)) lines.push(`(deny file-write* (literal ${sbplString(a)}))`);
  return `${lines.join("\n")}\n`;
}

/** The argv that runs `command` with `denied` read-only under `m` (the status fd is bubblewrap's only). */
export function sandboxArgv(m: Mechanism, denied: readonly string[], cwd: string, command: readonly string[], statusFd?: number): string[] {
  if (m.name === "bubblewrap") return [...bwrapArgv(m.path, denied, cwd, statusFd), ...command];
  return [m.path, "-p", macProfile(denied), ...command];
}
