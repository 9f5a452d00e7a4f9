/**
 * redaction-inventory (reference §22): the inverse audit. Harvest tokens that look private (kebab-case names,
 * Latin words written next to Hangul, home-directory users, e-mail domains) from every tracked file and the file
 * names, and report those no organisation rule covers and the reviewed baseline does not list.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../../lib/git.ts";
import type { Ctx } from "../../lib/context.ts";
import { parseOrgRules } from "./config.ts";
import { COMMON, FALLBACK_DICT, STOP } from "./words.ts";

const KINDS = ["kebab", "word_in_korean", "home_user", "email_domain"] as const;
type Kind = (typeof KINDS)[number];

export class InventoryFail extends Error {
  override name = "InventoryFail";
}

export interface InventoryOptions {
  root: string;
  rulesPath: string | undefined;
  baselinePath: string;
  minCount: number;
  dictPath: string;
  onNote: (msg: string) => void;
}

export interface Inventory {
  rules: number;
  rulesUnusable: number;
  rulesConsidered: number;
  trackedFiles: number;
  baseline: string;
  baselineEntries: number;
  uncovered: Record<Kind, Array<{ token: string; count: number }>>;
  total: number;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;
const KEBAB = /\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g;
const LATIN_WORD = /\b[a-z]{4,20}\b/g;
const HOME = /\/(?:Users|home)\/([A-Za-z0-9._-]+)/g;
const EMAIL = /[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

function loadDict(path: string, onNote: (m: string) => void): Set<string> {
  try {
    return new Set(
      readFileSync(path, "utf8")
        .split(/\r?\n/)
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean),
    );
  } catch {
    onNote(`${path} not found; using the built-in English word list (expect more word_in_korean candidates)`);
    return FALLBACK_DICT;
  }
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** Counts the candidates of one text into the four buckets. */
function harvest(text: string, counts: Record<Kind, Map<string, number>>): void {
  for (const m of text.matchAll(KEBAB)) {
    const t = m[0];
    if (STOP.has(t) || COMMON.has(t) || /^[0-9-]+$/.test(t)) continue;
    if (t.split("-").every((p) => STOP.has(p) || /^[0-9]+$/.test(p))) continue;
    bump(counts.kebab, t);
  }
  if (HANGUL.test(text)) {
    for (const m of text.matchAll(LATIN_WORD)) {
      const at = m.index;
      const near = text.slice(Math.max(0, at - 40), at + m[0].length + 40);
      if (HANGUL.test(near)) bump(counts.word_in_korean, m[0]);
    }
  }
  for (const m of text.matchAll(HOME)) bump(counts.home_user, m[0]);
  for (const m of text.matchAll(EMAIL)) {
    const d = m[1]!.toLowerCase();
    if (!/^example\.(com|org|net)$/.test(d)) bump(counts.email_domain, d);
  }
}

async function trackedFiles(ctx: Ctx, root: string): Promise<string[]> {
  const r = await git(ctx, root, ["ls-files", "-z"], 120_000);
  if (!r.ok) throw new InventoryFail("Not a git repository.");
  const files = r.stdout.split("\0").filter(Boolean);
  if (files.length === 0) throw new InventoryFail("No tracked files to scan.");
  return files;
}

function readBaseline(path: string): Set<string> {
  try {
    return new Set(
      readFileSync(path, "utf8")
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#")),
    );
  } catch {
    return new Set();
  }
}

export async function inventory(ctx: Ctx, o: InventoryOptions): Promise<Inventory> {
  if (!o.rulesPath) throw new InventoryFail("REDACTION_EXTRA_PATTERNS is unset. A blind spot cannot be measured without rules.");
  let rulesText: string;
  try {
    rulesText = readFileSync(o.rulesPath, "utf8");
  } catch {
    throw new InventoryFail("REDACTION_EXTRA_PATTERNS is unset. A blind spot cannot be measured without rules.");
  }
  const org = parseOrgRules(rulesText);
  // A rule RE2 rejects is unusable here too: the gate would not run it.
  const unusable = org.unusable + org.re2Rejected.length;
  if (org.rules.length === 0) throw new InventoryFail("No rules could be read from the pattern file.");
  const files = await trackedFiles(ctx, o.root);
  const counts = Object.fromEntries(KINDS.map((k) => [k, new Map<string, number>()])) as Record<Kind, Map<string, number>>;
  const decoder = new TextDecoder("utf-8", { fatal: false });
  for (const f of files) {
    let buf: Buffer;
    try {
      buf = readFileSync(join(o.root, f));
    } catch {
      continue;
    }
    if (buf.subarray(0, 8192).indexOf(0) >= 0) continue;
    harvest(decoder.decode(buf), counts);
  }
  harvest(files.join("\n"), counts);
  const dict = counts.word_in_korean.size ? loadDict(o.dictPath, o.onNote) : new Set<string>();
  const commonText = [...COMMON].join(" ");
  const baseline = readBaseline(o.baselinePath);
  const matchers = org.rules.map((r) => new RegExp(r.regex!.source, r.regex!.flags.replace("g", "")));
  const covered = (t: string) => matchers.some((re) => re.test(t));
  const uncovered = {} as Inventory["uncovered"];
  let total = 0;
  for (const k of KINDS) {
    const rows: Array<{ token: string; count: number }> = [];
    for (const [token, count] of counts[k]) {
      if (count < o.minCount || baseline.has(token) || covered(token)) continue;
      if (k === "word_in_korean" && (STOP.has(token) || dict.has(token) || commonText.includes(token))) continue;
      rows.push({ token, count });
    }
    rows.sort((a, b) => b.count - a.count || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
    uncovered[k] = rows;
    total += rows.length;
  }
  return { rules: org.rules.length, rulesUnusable: unusable, rulesConsidered: org.considered, trackedFiles: files.length, baseline: o.baselinePath, baselineEntries: baseline.size, uncovered, total };
}

export function renderInventory(inv: Inventory): string[] {
  const head = `redaction-inventory: ${inv.rules} rules / scope tracked / ${inv.trackedFiles} files / baseline ${inv.baselineEntries}`;
  const out = [inv.rulesUnusable ? `${head} / ${inv.rulesUnusable} unusable of ${inv.rulesConsidered} rule lines` : head];
  if (inv.total === 0) return [...out, "redaction-inventory: OK. 0 uncovered candidates"];
  for (const k of KINDS) {
    const rows = inv.uncovered[k];
    if (rows.length === 0) continue;
    out.push("", `[${k}] ${rows.length}`);
    for (const r of rows.slice(0, 40)) out.push(`  ${String(r.count).padStart(5)}  ${r.token}`);
    if (rows.length > 40) out.push(`  … and ${rows.length - 40} more`);
  }
  out.push(`redaction-inventory: ${inv.total} uncovered candidates. Not all of them are secrets. Pick the ones that belong in a rule.`);
  return out;
}

export function inventoryJson(inv: Inventory): Record<string, unknown> {
  return {
    rules: inv.rules,
    rules_unusable: inv.rulesUnusable,
    rules_considered: inv.rulesConsidered,
    tracked_files: inv.trackedFiles,
    baseline: inv.baseline,
    uncovered_total: inv.total,
    uncovered: inv.uncovered,
  };
}
