/**
 * One line per validation problem, the reference's wording: the field path (`repositories[0].role`,
 * `transcript_globs`) followed by the schema's own message, which is relative to the field (a message that starts
 * with `[` names a sub-key itself: `transcript_globs['claude'] ...`).
 */
import type * as v from "valibot";

function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = "";
  for (const item of issue.path ?? []) {
    const key = (item as { key: unknown }).key;
    if (item.type === "array") out += `[${String(key)}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

export function issueLine(issue: v.BaseIssue<unknown>): string {
  const path = issuePath(issue);
  if (!path) return issue.message;
  return issue.message.startsWith("[") ? `${path}${issue.message}` : `${path} ${issue.message}`;
}

export function dropUnderscoreKeys(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith("_")));
}

export const UNDERSCORE_KEYS = { patternProperties: { "^_": { description: "Documentation; ignored by the loader." } } };
