/**
 * Walkthrough blocks of README.md and docs/*.md (the convention is documented in test/e2e/walkthroughs.test.ts):
 * a ```sh fence right after a `<!-- walkthrough -->` (or `<!-- walkthrough: name -->`) line. Each command line
 * must exit 0 unless its trailing comment ends with `exit N`.
 */
import { chownSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { binaryPath } from "./binary.ts";
import { ROOT } from "./paths.ts";

export interface Walkthrough {
  file: string;
  name: string;
  /** 1-based line number of the fence's first content line. */
  line: number;
  lines: string[];
}

export const DOC_FILES = () => [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

export function walkthroughs(file: string, text = readFileSync(join(ROOT, file), "utf8")): Walkthrough[] {
  const lines = text.split("\n");
  const out: Walkthrough[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const m = /^<!--\s*walkthrough(?::\s*([^>]*?))?\s*-->\s*$/.exec(lines[i]!);
    if (!m) continue;
    if (!/^```sh\s*$/.test(lines[i + 1]!)) throw new Error(`${file}:${i + 1}: <!-- walkthrough --> must be followed by a \`\`\`sh fence`);
    const end = lines.findIndex((l, j) => j > i + 1 && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${file}:${i + 2}: unterminated walkthrough block`);
    out.push({ file, name: m[1] || `${file}:${i + 1}`, line: i + 3, lines: lines.slice(i + 2, end) });
  }
  return out;
}

/** The documented exit code of a command line: a trailing comment ending in `exit N`, else 0. */
function expectedExit(lastLine: string): number {
  const comment = /\s#\s(.*)$/.exec(lastLine)?.[1] ?? "";
  const m = /\bexit (\d+)\s*$/.exec(comment);
  return m ? Number(m[1]) : 0;
}

const sq = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The block as one sh script that checks every command's exit status as it goes: a command is a line (plus its
 * `\` continuations); blank and comment-only lines are kept as they are. The first mismatch stops the script with
 * exit 97 and a `WALKTHROUGH FAIL <file>:<line>` line on stderr.
 */
export function toScript(w: Walkthrough): string {
  const out: string[] = [];
  for (let i = 0; i < w.lines.length; i++) {
    const start = i;
    while (w.lines[i]!.endsWith("\\") && i + 1 < w.lines.length) i++;
    const cmd = w.lines.slice(start, i + 1);
    if (/^\s*(#.*)?$/.test(cmd[0]!)) {
      out.push(...cmd);
      continue;
    }
    const where = `${w.file}:${w.line + start}`;
    const want = expectedExit(cmd[cmd.length - 1]!);
    out.push(`printf '%s\\n' ${sq(`+ ${where}: ${cmd[0]!.trim()}`)} >&2`, ...cmd);
    out.push(`__rc=$?; [ "$__rc" -eq ${want} ] || { echo "WALKTHROUGH FAIL ${where}: exit $__rc, documented ${want}" >&2; exit 97; }`);
  }
  return `${out.join("\n")}\n`;
}

const NOBODY = 65534;

interface Jail {
  prefix: string[];
  uid?: number;
  notes: string[];
  /** Why the block cannot be run as a newcomer here (root with no way to drop to an unprivileged user). */
  skip?: string;
}

/**
 * How the block is run: as `nobody` when we are root (setpriv), and with `alone`, inside a mount namespace where the
 * source repository (and the checkout its node_modules points into) is an empty tmpfs, so nothing of it can be read.
 */
function jail(alone: boolean): Jail {
  const notes: string[] = [];
  const root = process.getuid?.() === 0;
  const setpriv = Bun.which("setpriv");
  const drop = root && setpriv ? [setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"] : [];
  // A newcomer is not root: as root with no setpriv the block is not run at all (a root run proves nothing).
  if (root && !setpriv) return { prefix: [], notes, skip: "running as root and setpriv is not installed: cannot run the block as an unprivileged user" };
  if (!alone) return { prefix: drop, uid: drop.length ? NOBODY : undefined, notes };
  const unshare = Bun.which("unshare");
  const probe = root && unshare ? Bun.spawnSync([unshare, "--mount", "true"]).exitCode === 0 : false;
  if (!probe || !unshare) {
    notes.push("no mount namespace (needs root and unshare): the source tree stays visible; only PATH keeps it out");
    return { prefix: drop, uid: drop.length ? NOBODY : undefined, notes };
  }
  const hide = [...new Set([ROOT, dirname(realpathSync(join(ROOT, "node_modules")))])];
  const mounts = hide.map((_, i) => `mount -t tmpfs none "$${i + 1}"`).join(" && ");
  return { prefix: [unshare, "--mount", "--", "/bin/sh", "-c", `${mounts} && shift ${hide.length} && exec "$@"`, "jail", ...hide, ...drop], uid: drop.length ? NOBODY : undefined, notes };
}

export interface WalkthroughRun {
  code: number | null;
  /** stderr (the `+ file:line` trace and any WALKTHROUGH FAIL line), then stdout. */
  out: string;
  notes: string[];
  /** Set when the block was not run, with the reason (printed by the test). */
  skipped?: string;
}

/**
 * Runs one block the way a newcomer runs it (issue 26 §1): in a fresh temp tree (bin, home, tmp, work), HOME and
 * TMPDIR inside it, as an unprivileged user (`nobody` when we are root), with no git identity (no GIT_* variables,
 * an empty HOME: a block that commits sets one itself), no MOGUI_HOME, and only the binary on PATH (`bin/mogui`,
 * then /usr/bin:/bin; no fixtures: the fakes come from `mogui sim install-shims`). `alone`: a copy of the binary
 * instead of a link, and the source tree hidden (see jail).
 */
export async function runWalkthrough(w: Walkthrough, opts: { alone?: boolean } = {}): Promise<WalkthroughRun> {
  const j = jail(Boolean(opts.alone));
  if (j.skip) return { code: 0, out: "", notes: j.notes, skipped: j.skip };
  // Not the shared test temp root (mode 0700, owned by root): this tree must be reachable by `nobody`.
  const dir = mkdtempSync(join(tmpdir(), "mogui-walkthrough-"));
  try {
    for (const d of ["bin", "home", "tmp", "work"]) mkdirSync(join(dir, d));
    if (opts.alone) copyFileSync(binaryPath(), join(dir, "bin", "mogui"));
    else symlinkSync(binaryPath(), join(dir, "bin", "mogui"));
    writeFileSync(join(dir, "walkthrough.sh"), toScript(w));
    if (j.uid !== undefined) for (const d of ["", "home", "tmp", "work"]) chownSync(join(dir, d), j.uid, j.uid);
    const env: Record<string, string> = {
      PATH: `${join(dir, "bin")}:/usr/bin:/bin`,
      HOME: join(dir, "home"),
      TMPDIR: join(dir, "tmp"),
      LANG: "C",
      NO_COLOR: "1",
    };
    const p = Bun.spawn([...j.prefix, "/bin/sh", join(dir, "walkthrough.sh")], { cwd: join(dir, "work"), env, stdout: "pipe", stderr: "pipe", timeout: 120_000 });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, out: `${err}\n--- stdout ---\n${out}`, notes: j.notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
