/**
 * test-tool-naming (reference §28.6): docs and skills must not name the retired `ctx.*` tool spellings
 * (`ctx.search`, `ctx.sql`, `ctx.show_event`, `ctx.show_session`, `ctx.status`, `ctx.sources`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const RETIRED = /ctx\.(search|sql|show_event|show_session|status|sources)\b/g;
const TEXT = /\.(md|mdx|txt|json|ya?ml|toml|sh|ts|js|py)$/;

export interface NamingFinding {
  path: string;
  line: number;
  name: string;
}

function scanText(path: string, text: string): NamingFinding[] {
  const out: NamingFinding[] = [];
  text.split("\n").forEach((l, i) => {
    for (const m of l.matchAll(RETIRED)) out.push({ path, line: i + 1, name: m[0] });
  });
  return out;
}

function walk(dir: string, files: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names.sort()) {
    if (n === ".git" || n === "node_modules") continue;
    const p = join(dir, n);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) walk(p, files);
    else if (st?.isFile() && TEXT.test(n)) files.push(p);
  }
}

export function scanTree(root: string, dirs: readonly string[]): { findings: NamingFinding[]; scanned: number } {
  const files: string[] = [];
  for (const d of dirs) walk(join(root, d), files);
  const findings = files.flatMap((f) => scanText(relative(root, f), readFileSync(f, "utf8")));
  return { findings, scanned: files.length };
}

/** The detector checked against itself: names that must be found, and look-alikes that must not. */
export function selfTest(): string[] {
  const hits = ["ctx.search(q)", "use ctx.sql to", "`ctx.show_event`", "ctx.show_session()", "ctx.status", "see ctx.sources."];
  const misses = ["ctx.searching", "ctx.sqlite", "ctx.status_code", "ctxsearch", "context.search", "ctx.show_events"];
  const failures: string[] = [];
  for (const h of hits) if (scanText("self", h).length !== 1) failures.push(`should flag: ${h}`);
  for (const m of misses) if (scanText("self", m).length !== 0) failures.push(`should not flag: ${m}`);
  return failures;
}
