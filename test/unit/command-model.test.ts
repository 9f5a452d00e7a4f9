// The command model's mechanical rules (D35, issue 16 §2 and §4, issue 22 §1): the import graph points down only and
// has no cycles; the families form layers (a DAG, src/lib imports no family); exit codes are names, not bare numbers;
// converted commands read typed args (no casts).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { tsFiles } from "../helpers/files.ts";
import { ROOT } from "../helpers/paths.ts";

const files = tsFiles;

const SOURCES = [...files(join(ROOT, "src")), ...files(join(ROOT, "commands"))];
const rel = (f: string) => relative(ROOT, f);
const text = new Map(SOURCES.map((f) => [f, readFileSync(f, "utf8")]));

interface Edge {
  to: string;
  /** false for `import type` / `export type` (erased at build time) and for `import()` (lazy). */
  eager: boolean;
}

/** Relative imports only (packages are leaves). Comments are not stripped: a quoted path in a comment is rare. */
function edges(file: string): Edge[] {
  const src = text.get(file)!;
  const out: Edge[] = [];
  const at = (spec: string) => resolve(dirname(file), spec);
  for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["'](\.[^"']+)["']/gm)) out.push({ to: at(m[3]!), eager: !m[2] });
  for (const m of src.matchAll(/^\s*import\s+["'](\.[^"']+)["']/gm)) out.push({ to: at(m[1]!), eager: true });
  for (const m of src.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)) out.push({ to: at(m[1]!), eager: false });
  return out;
}

describe("import graph", () => {
  test("no import from src/ into commands/ (src/cli.ts is the composition root that binds the tree)", () => {
    const up: string[] = [];
    for (const f of SOURCES) {
      if (!rel(f).startsWith("src/") || rel(f) === "src/cli.ts") continue;
      for (const e of edges(f)) if (rel(e.to).startsWith("commands/")) up.push(`${rel(f)} -> ${rel(e.to)}`);
    }
    expect(up).toEqual([]);
  });

  test("no cycle of eager imports in src/ and commands/", () => {
    const graph = new Map(
      SOURCES.map((f) => [
        f,
        edges(f)
          .filter((e) => e.eager && text.has(e.to))
          .map((e) => e.to),
      ]),
    );
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]) => {
      state.set(f, 1);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 1) cycles.push([...stack.slice(stack.indexOf(t)), t].map(rel).join(" -> "));
        else if (!state.has(t)) visit(t, [...stack, t]);
      }
      state.set(f, 2);
    };
    for (const f of SOURCES) if (!state.has(f)) visit(f, [f]);
    expect(cycles).toEqual([]);
  });
});

/**
 * Layers (issue 22 §1): the families (src/<family>/, with commands/<family>/ counted as the same family) form a DAG
 * of value imports (`import type` is erased; `import()` counts: it still runs the code), and src/lib/ imports no
 * family (nor anything else outside src/lib/). The graph is printed, one `from -> to: lines` row per edge.
 */
function family(f: string): string | undefined {
  const parts = rel(f).split("/");
  if ((parts[0] === "src" || parts[0] === "commands") && parts.length > 2) return parts[1];
  return undefined;
}

/** Value imports only: `import type ...` and `import { type A, type B }` are erased at build time. */
function valueEdges(file: string): string[] {
  const src = text.get(file)!;
  const out: string[] = [];
  const at = (spec: string) => resolve(dirname(file), spec);
  for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\bfrom\s+["'](\.[^"']+)["']/gm)) {
    if (m[2]) continue;
    const body = m[3]!.trim();
    const names = /^\{([^}]*)\}$/
      .exec(body)?.[1]
      ?.split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    if (names?.length && names.every((n) => n.startsWith("type "))) continue;
    out.push(at(m[4]!));
  }
  for (const m of src.matchAll(/^\s*import\s+["'](\.[^"']+)["']/gm)) out.push(at(m[1]!));
  for (const m of src.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)) out.push(at(m[1]!));
  return out;
}

describe("layers", () => {
  test("src/lib imports no family (nothing of src/ or commands/ outside src/lib; data files are leaves)", () => {
    const up: string[] = [];
    for (const f of SOURCES) {
      if (!rel(f).startsWith("src/lib/")) continue;
      for (const e of edges(f)) if (/^(src|commands)\//.test(rel(e.to)) && !rel(e.to).startsWith("src/lib/")) up.push(`${rel(f)} -> ${rel(e.to)}`);
    }
    expect(up).toEqual([]);
  });

  test("the families form a DAG of value imports (graph printed)", () => {
    const lines = new Map<string, number>();
    for (const f of SOURCES) {
      const a = family(f);
      if (!a || a === "lib") continue;
      for (const t of valueEdges(f)) {
        const b = family(t);
        if (!b || b === a || b === "lib" || rel(t).startsWith("commands/")) continue;
        lines.set(`${a} -> ${b}`, (lines.get(`${a} -> ${b}`) ?? 0) + 1);
      }
    }
    console.log(
      `family graph (value import lines):\n${[...lines]
        .sort()
        .map(([k, n]) => `  ${k}: ${n}`)
        .join("\n")}`,
    );
    const adj = new Map<string, string[]>();
    for (const k of lines.keys()) {
      const [a, b] = k.split(" -> ") as [string, string];
      adj.set(a, [...(adj.get(a) ?? []), b]);
    }
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]) => {
      state.set(f, 1);
      for (const t of adj.get(f) ?? []) {
        if (state.get(t) === 1) cycles.push([...stack.slice(stack.indexOf(t)), t].join(" -> "));
        else if (!state.has(t)) visit(t, [...stack, t]);
      }
      state.set(f, 2);
    };
    for (const f of [...adj.keys()].sort()) if (!state.has(f)) visit(f, [f]);
    expect(cycles).toEqual([]);
  });
});

/**
 * A bare exit code is a number where a declared exit NAME belongs:
 * - `new ExitError(<digits>` or `new NamedExit(..., <digits>` anywhere in src/ or commands/;
 * - `exitCode = <digits>` anywhere but src/cli.ts;
 * - `return <digits>;` in commands/ (a command's run returns an exit name; a number there is an exit code).
 * src/lib/exits.ts declares the codes and is exempt.
 */
const BARE = [/new ExitError\(\s*\d/g, /exitCode\s*=\s*\d/g];
const BARE_IN_COMMANDS = /\breturn\s+\d+\s*;/g;
const EXEMPT = new Set(["src/lib/exits.ts", "src/cli.ts"]);

function bareCount(f: string): number {
  const src = text.get(f)!;
  let n = 0;
  for (const re of BARE) n += src.match(re)?.length ?? 0;
  if (rel(f).startsWith("commands/")) n += src.match(BARE_IN_COMMANDS)?.length ?? 0;
  return n;
}

describe("exit codes are declared names", () => {
  test("no bare numeric exit code in commands/ or src/ (count printed)", () => {
    const hits = SOURCES.filter((f) => !EXEMPT.has(rel(f)))
      .map((f) => [rel(f), bareCount(f)] as const)
      .filter(([, n]) => n > 0);
    const total = hits.reduce((a, [, n]) => a + n, 0);
    console.log(`bare exit literals: ${total} in ${hits.length} files`);
    expect(hits).toEqual([]);
  });

  test("converted commands (defineCommand) read typed args: no casts (casts left elsewhere printed)", () => {
    const cast = /\bargs(\.[\w$]+|\[["'][^"']+["']\])\s+as\s/g;
    const cmds = SOURCES.filter((f) => rel(f).startsWith("commands/"));
    const converted = cmds.filter((f) => /\bdefineCommand\(/.test(text.get(f)!));
    const casts = cmds.reduce((a, f) => a + (text.get(f)!.match(cast)?.length ?? 0), 0);
    console.log(`commands (defineCommand): ${converted.length}; arg casts left: ${casts}`);
    expect(converted.filter((f) => cast.test(text.get(f)!)).map(rel)).toEqual([]);
  });
});
