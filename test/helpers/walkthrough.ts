/**
 * Walkthrough blocks of README.md and docs/*.md (the convention is documented in test/e2e/walkthroughs.test.ts):
 * a ```sh fence right after a `<!-- walkthrough -->` (or `<!-- walkthrough: name -->`) line. Each command line
 * must exit 0 unless its trailing comment ends with `exit N`.
 */
import { chownSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { binaryPath } from "./binary.ts";
import { GIT_ENV } from "./git.ts";
import { FIXTURES_BIN, ROOT } from "./paths.ts";

export interface Walkthrough {
  file: string;
  name: string;
  /** 1-based line number of the fence's first content line. */
  line: number;
  lines: string[];
}

export const DOC_FILES = () => ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];

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
  if (root && !setpriv) notes.push("running as root: setpriv is not installed, so the non-root part is skipped");
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
}

/**
 * Runs one block in a fresh temp tree (bin, home, tmp, work), HOME and TMPDIR inside it. Default: the built binary
 * as `mogui` and fixtures/bin on PATH. `alone`: a copy of the binary is the only thing on PATH besides /usr/bin:/bin,
 * and the source tree is hidden (see jail).
 */
export async function runWalkthrough(w: Walkthrough, opts: { alone?: boolean } = {}): Promise<WalkthroughRun> {
  const j = jail(Boolean(opts.alone));
  // Not the shared test temp root (mode 0700, owned by root): this tree must be reachable by `nobody`.
  const dir = mkdtempSync(join(tmpdir(), "mogui-walkthrough-"));
  try {
    for (const d of ["bin", "home", "tmp", "work"]) mkdirSync(join(dir, d));
    if (opts.alone) copyFileSync(binaryPath(), join(dir, "bin", "mogui"));
    else symlinkSync(binaryPath(), join(dir, "bin", "mogui"));
    writeFileSync(join(dir, "walkthrough.sh"), toScript(w));
    if (j.uid !== undefined) for (const d of ["", "home", "tmp", "work"]) chownSync(join(dir, d), j.uid, j.uid);
    const env: Record<string, string> = {
      ...GIT_ENV,
      PATH: opts.alone ? `${join(dir, "bin")}:/usr/bin:/bin` : `${join(dir, "bin")}:${FIXTURES_BIN}:/usr/local/bin:/usr/bin:/bin`,
      HOME: join(dir, "home"),
      TMPDIR: join(dir, "tmp"),
      LANG: "C",
      NO_COLOR: "1",
    };
    if (!opts.alone) env.MOGUI_BIN = binaryPath();
    const p = Bun.spawn([...j.prefix, "/bin/sh", join(dir, "walkthrough.sh")], { cwd: join(dir, "work"), env, stdout: "pipe", stderr: "pipe", timeout: 120_000 });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, out: `${err}\n--- stdout ---\n${out}`, notes: j.notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
