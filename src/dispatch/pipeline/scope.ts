/**
 * Contract scopes for the collision check (reference §4.6): the `- Scope:` bullet of a contract (plus its lines
 * indented two spaces) as file tokens, and whether two scopes touch the same files. Tokens are resolved against
 * the repository's tracked files, so `src/` and `src/*.ts` overlap `src/a.ts`.
 */

export interface ScopeToken {
  /** As written, after clean-up (`./` and `master-ops/` prefixes stripped). */
  raw: string;
  kind: "dir" | "glob" | "path";
}

const SCOPE_RE = /^\s*[-*+]\s+(?:\*\*|__)?scope(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$/i;
// A dotted file name with a name of two or more characters (so "e.g." and "i.e." are not files).
const DOTTED_FILE_RE = /^[\w@+-][\w@+.-]+\.[A-Za-z0-9]{1,10}$/;
const LEADING_JUNK = /^[("'<[]+/;
const TRAILING_JUNK = /[,;:.)\]"'>!?]+$/;

/** The scope bullet's text: its own line plus every following line indented at least two spaces. */
export function scopeText(contract: string): string | null {
  const lines = contract.replace(/\r\n?/g, "\n").split("\n");
  const start = lines.findIndex((l) => SCOPE_RE.test(l));
  if (start < 0) return null;
  const out = [SCOPE_RE.exec(lines[start]!)![1]!];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith("  ") || l.trim() === "") break;
    out.push(l.trim());
  }
  return out.join("\n");
}

function clean(token: string): string | null {
  let t = token.replace(LEADING_JUNK, "").replace(TRAILING_JUNK, "");
  if (!t || t.includes("://") || /\s/.test(t)) return null;
  while (t.startsWith("./")) t = t.slice(2);
  if (t.startsWith("master-ops/")) t = t.slice("master-ops/".length);
  if (!t || t === "/" || t.startsWith("/") || t.split("/").includes("..")) return null;
  return t;
}

function kindOf(t: string): ScopeToken["kind"] {
  if (/[*?[]/.test(t)) return "glob";
  if (t.endsWith("/")) return "dir";
  return "path";
}

/** File tokens of a contract's scope: backticked spans, tokens with a `/`, and dotted file names. */
export function parseScope(contract: string): ScopeToken[] {
  const text = scopeText(contract);
  if (text === null) return [];
  const found: string[] = [];
  const rest = text.replace(/`([^`\n]+)`/g, (_, span: string) => {
    found.push(span.trim());
    return " ";
  });
  for (const word of rest.split(/[\s,]+/)) {
    const t = word.replace(LEADING_JUNK, "").replace(TRAILING_JUNK, "");
    if (t.includes("/") || DOTTED_FILE_RE.test(t)) found.push(t);
  }
  const seen = new Set<string>();
  const out: ScopeToken[] = [];
  for (const f of found) {
    const t = clean(f);
    if (t === null || seen.has(t)) continue;
    seen.add(t);
    out.push({ raw: t, kind: kindOf(t) });
  }
  return out;
}

/**
 * Python's fnmatch (what the reference used): `*` also crosses `/`, so `src/*.ts` overlaps `src/deep/a.ts`. Not
 * Bun.Glob: its `*` (and a `**` inside a segment) stops at `/`, which would make the collision check miss overlaps.
 */
export function fnmatchRegex(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "s");
}

function matcher(t: ScopeToken): (file: string) => boolean {
  if (t.kind === "glob") {
    const re = fnmatchRegex(t.raw);
    return (f) => re.test(f);
  }
  if (t.kind === "dir") return (f) => f.startsWith(t.raw);
  return (f) => f === t.raw || f.startsWith(`${t.raw}/`);
}

/** The files a token names: its matches among the tracked files, or the token itself when nothing matched. */
function concrete(t: ScopeToken, tracked: readonly string[]): string[] {
  const m = matcher(t);
  const hits = tracked.filter(m);
  if (hits.length) return hits;
  return t.kind === "path" ? [t.raw] : [];
}

/** Files both scopes name (sorted). `theirs` may be plain file lists (an open PR's changed files). */
export function scopeOverlap(mine: readonly ScopeToken[], theirs: readonly ScopeToken[], tracked: readonly string[]): string[] {
  const out = new Set<string>();
  for (const a of mine) {
    const ma = matcher(a);
    const ca = concrete(a, tracked);
    for (const b of theirs) {
      const mb = matcher(b);
      for (const f of ca) if (mb(f)) out.add(f);
      for (const f of concrete(b, tracked)) if (ma(f)) out.add(f);
    }
  }
  return [...out].sort();
}

export function fileTokens(files: readonly string[]): ScopeToken[] {
  return files.map((f) => ({ raw: f, kind: "path" as const }));
}
