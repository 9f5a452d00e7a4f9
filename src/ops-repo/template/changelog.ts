/** Adoption notes (reference §28.1): the CHANGELOG sections an ops repository has not adopted yet. */

export interface AdoptionNote {
  version: string;
  body: string;
}

/** `v0.5.0`, `0.5.0`, `[v0.5.0] - 2026-11-30` all name 0.5.0. */
export function normalizeVersion(s: string): string {
  const first = s.trim().split(/\s+/)[0] ?? "";
  return first.replace(/^\[|\]$/g, "").replace(/^[vV]/, "");
}

function changelogSections(text: string): AdoptionNote[] {
  const out: AdoptionNote[] = [];
  let cur: { version: string; lines: string[] } | null = null;
  for (const line of text.replace(/\r\n/g, "\n").split("\n")) {
    const m = /^## (?!#)(.*)$/.exec(line);
    if (m) {
      if (cur) out.push({ version: cur.version, body: cur.lines.join("\n").trim() });
      cur = { version: m[1]!.trim(), lines: [] };
    } else if (cur) cur.lines.push(line);
  }
  if (cur) out.push({ version: cur.version, body: cur.lines.join("\n").trim() });
  return out;
}

/**
 * Sections newer than `installed`, newest first: `Unreleased` always, then every section up to (not including) the
 * installed version's heading. An unknown installed version (no manifest) gets every section.
 */
export function adoptionNotes(text: string, installed: string | null): AdoptionNote[] {
  const want = installed === null ? null : normalizeVersion(installed);
  const out: AdoptionNote[] = [];
  for (const s of changelogSections(text)) {
    if (/^unreleased\b/i.test(s.version)) {
      out.push(s);
      continue;
    }
    if (want !== null && normalizeVersion(s.version) === want) break;
    out.push(s);
  }
  return out;
}
