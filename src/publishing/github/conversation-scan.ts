/**
 * conversation-redaction-scan (reference §28.6): PR bodies, PR comments and reviews, issue bodies and issue
 * comments must not leak local home paths. Each violation is `surface|number|author|locator|pattern`: where it
 * is and which rule matched, never the matched value.
 */
import type { Ctx } from "../../lib/context.ts";
import { ghJson, repoArgs } from "./gh.ts";

const PATTERNS: [RegExp, string][] = [
  [/\/Users\/[A-Za-z0-9._-]+/, "/Users/<x>"],
  [/\/home\/[A-Za-z0-9._-]+/, "/home/<x>"],
];

export interface Violation {
  surface: string;
  number: number;
  author: string;
  locator: string;
  pattern: string;
}

type Item = Record<string, unknown>;

const login = (v: unknown) => {
  const a = v as { login?: unknown } | undefined;
  return typeof a?.login === "string" ? a.login : "unknown";
};

function scanText(text: unknown, where: Omit<Violation, "pattern">): Violation[] {
  if (typeof text !== "string") return [];
  return PATTERNS.filter(([re]) => re.test(text)).map(([, pattern]) => ({ ...where, pattern }));
}

function scanItem(kind: "pr" | "issue", it: Item): Violation[] {
  const number = typeof it.number === "number" ? it.number : 0;
  const out = scanText(it.body, { surface: `${kind}_body`, number, author: login(it.author), locator: "body" });
  const lists: [string, unknown][] = [["comment", it.comments], ...(kind === "pr" ? ([["review", it.reviews]] as [string, unknown][]) : [])];
  for (const [what, list] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((c: Item, i) => {
      const locator = typeof c.url === "string" && c.url ? `${what}:${c.url.replace(/^.*#/, "")}` : `${what}#${i + 1}`;
      out.push(...scanText(c.body, { surface: `${kind}_${what}`, number, author: login(c.author), locator }));
    });
  }
  return out;
}

export async function scanConversations(ctx: Ctx, repo: string, limit: number): Promise<Violation[]> {
  const common = ["--state", "all", "--limit", String(limit), ...repoArgs(repo)];
  const prs = await ghJson(ctx, ["pr", "list", ...common, "--json", "number,author,body,comments,reviews"]);
  const issues = await ghJson(ctx, ["issue", "list", ...common, "--json", "number,author,body,comments"]);
  const out: Violation[] = [];
  for (const it of Array.isArray(prs) ? (prs as Item[]) : []) out.push(...scanItem("pr", it));
  for (const it of Array.isArray(issues) ? (issues as Item[]) : []) out.push(...scanItem("issue", it));
  return out;
}

export function formatViolation(v: Violation): string {
  return `${v.surface}|${v.number}|${v.author}|${v.locator}|${v.pattern}`;
}
