// The repository documents itself: every decision (D<n>) and reference section (§<n>) a comment cites has a heading
// in docs/decisions.md (§<n> after docs/orca-cli.md or docs/herdr-cli.md: a heading there), and no tracked file
// points at a document outside the repository.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const SELF = relative(ROOT, import.meta.path);

function tracked(): string[] {
  const r = Bun.spawnSync(["git", "-C", ROOT, "ls-files", "-z"], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ls-files failed: ${r.stderr.toString()}`);
  return r.stdout
    .toString()
    .split("\0")
    .filter((f) => f !== "" && existsSync(join(ROOT, f)));
}

const TEXT = /\.(ts|md|sh|json|toml|txt|ya?ml)$|(^|\/)[^./]+$/;

function text(file: string): string | null {
  if (!TEXT.test(file)) return null;
  const buf = readFileSync(join(ROOT, file));
  if (buf.includes(0)) return null;
  return buf.toString("utf8");
}

/** `## D12 ...` / `### §3.6 ...` headings of a document: the ids a citation may resolve to. */
function headings(doc: string): Set<string> {
  const out = new Set<string>();
  for (const m of readFileSync(join(ROOT, doc), "utf8").matchAll(/^#{2,3} (D\d+|§\d+(?:\.\d+)*)(?=\s|$)/gm)) out.add(m[1]!);
  return out;
}

/** The comment text of a source file (TypeScript: // and /* *\/ comments; Markdown and the rest: everything). */
function comments(file: string, body: string): string[] {
  if (!file.endsWith(".ts")) return [body];
  return body.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
}

const DOCS = { decisions: "docs/decisions.md", orca: "docs/orca-cli.md", herdr: "docs/herdr-cli.md" } as const;

/** Which document a `§` at `at` in `c` cites: the CLI document named just before it, else the decision record. */
function docFor(c: string, at: number): keyof typeof DOCS | null {
  const before = c.slice(Math.max(0, at - 40), at);
  if (/\bissue \d+ $/.test(before)) return null; // an issue's own section, not a document
  const named = [...before.matchAll(/docs\/(orca|herdr)-cli\.md/g)].pop();
  if (named && !/[.;]\s/.test(before.slice(named.index! + named[0].length))) return named[1] as "orca" | "herdr";
  return "decisions";
}

/** A citation resolves when its id, or a parent section of it (§3.6 -> §3), is a heading. */
function resolves(id: string, have: Set<string>): boolean {
  const parts = id.split(".");
  for (let n = parts.length; n >= 1; n--) if (have.has(parts.slice(0, n).join("."))) return true;
  return false;
}

describe("docs/decisions.md is the decision record the code cites", () => {
  const files = tracked().filter((f) => /^(src|commands|scripts|test|fixtures)\//.test(f) && f !== SELF);
  const have = { decisions: headings(DOCS.decisions), orca: headings(DOCS.orca), herdr: headings(DOCS.herdr) };

  test("every decision D1-D38 has a heading", () => {
    const missing = Array.from({ length: 38 }, (_, i) => `D${i + 1}`).filter((d) => !have.decisions.has(d));
    expect(missing).toEqual([]);
  });

  test("every D<n> and §<n> cited in a comment resolves to a heading", () => {
    const problems: string[] = [];
    let cited = 0;
    for (const f of files) {
      const body = text(f);
      if (body === null) continue;
      for (const c of comments(f, body)) {
        // `[D1]` is a worker brief's directive id, not a decision.
        for (const m of c.matchAll(/(?<![\w[])D(\d{1,2})(?![\w\]])/g)) {
          cited++;
          if (!have.decisions.has(`D${m[1]}`)) problems.push(`${f}: D${m[1]} has no heading in ${DOCS.decisions}`);
        }
        for (const m of c.matchAll(/§\s?(\d+(?:\.\d+)*)/g)) {
          const doc = docFor(c, m.index!);
          if (doc === null) continue;
          cited++;
          // the decision record has a heading for every section and subsection it is cited by (issue 22 §2); the CLI
          // documents resolve a subsection to its section
          const ok = doc === "decisions" ? have.decisions.has(`§${m[1]}`) : resolves(`§${m[1]}`, have[doc]);
          if (!ok) problems.push(`${f}: §${m[1]} has no heading in ${DOCS[doc]}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(cited).toBeGreaterThan(100); // the scan sees the citations (it is not vacuous)
  });
});

describe("no tracked file points outside the repository", () => {
  // Assembled so this file does not name them itself.
  const outside = [["..", "shared"].join("/"), ["shared", "spec"].join("/"), ["", "work", "shared"].join("/")];
  const unpathed = ["DECISIONS", "reference-behaviour", "CONVENTIONS"].map((n) => `${n}.md`);

  test("no ../shared, shared/spec or external spec documents; CLI documents are the ones under docs/", () => {
    const problems: string[] = [];
    for (const f of tracked()) {
      if (f === SELF || f === "package-lock.json") continue;
      const body = text(f);
      if (body === null) continue;
      body.split("\n").forEach((line, i) => {
        const at = `${f}:${i + 1}`;
        for (const p of outside) if (line.includes(p)) problems.push(`${at}: ${p}`);
        for (const p of unpathed) if (line.includes(p)) problems.push(`${at}: ${p} (not in the repository)`);
        for (const m of line.matchAll(/(?<![\w/-])([\w./-]*)((?:orca|herdr)-cli\.md)/g)) {
          if (existsSync(resolve(ROOT, m[1]!, m[2]!)) || existsSync(resolve(ROOT, dirname(f), m[1]!, m[2]!))) continue;
          problems.push(`${at}: ${m[0]} (write docs/${m[2]})`);
        }
      });
    }
    expect(problems).toEqual([]);
  });

  test("relative Markdown links resolve to a file inside the repository", () => {
    const problems: string[] = [];
    for (const f of tracked().filter((x) => x.endsWith(".md"))) {
      const body = readFileSync(join(ROOT, f), "utf8");
      for (const m of body.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
        const abs = resolve(ROOT, dirname(f), target);
        if (relative(ROOT, abs).startsWith("..")) problems.push(`${f}: ${target} leaves the repository`);
        else if (!existsSync(abs)) problems.push(`${f}: ${target} does not exist`);
      }
    }
    expect(problems).toEqual([]);
  });
});
