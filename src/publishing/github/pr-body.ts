/**
 * pr-body-check (reference §28.6): a PR description must fill the four sections (Problem, Why this approach,
 * What this changes, Expected effect) with its own words, not the template's guidance, and must not carry
 * absolute home paths. Findings name the line, never the path found.
 */

const REQUIRED = ["Problem", "Why this approach", "What this changes", "Expected effect"] as const;

type SectionState = "filled" | "missing heading" | "present but empty" | "present but unmodified template guidance";

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

const norm = (s: string) =>
  s
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

/** Section bodies keyed by lower-cased heading text (the first heading of a name wins). */
function sections(md: string): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | null = null;
  let body: string[] = [];
  const close = () => {
    if (current !== null && !out.has(current)) out.set(current, body.join("\n"));
  };
  for (const line of md.split(/\r?\n/)) {
    const m = HEADING.exec(line);
    if (m) {
      close();
      current = m[1]!.replace(/[*_`]/g, "").trim().toLowerCase();
      body = [];
    } else if (current !== null) body.push(line);
  }
  close();
  return out;
}

function sectionState(body: Map<string, string>, template: Map<string, string> | null, name: string): SectionState {
  const key = name.toLowerCase();
  const text = body.get(key);
  if (text === undefined) return "missing heading";
  const mine = norm(text);
  if (mine === "") return "present but empty";
  const guidance = template ? norm(template.get(key) ?? "") : "";
  if (guidance !== "" && (mine === guidance || mine.includes(guidance))) return "present but unmodified template guidance";
  return "filled";
}

function homePathLines(md: string): number[] {
  const out: number[] = [];
  md.split(/\r?\n/).forEach((l, i) => {
    if (/\/(Users|home)\/[A-Za-z0-9._-]/.test(l)) out.push(i + 1);
  });
  return out;
}

export interface BodyReport {
  sections: { heading: string; state: SectionState }[];
  home_path_lines: number[];
  ok: boolean;
}

export function checkBody(body: string, template: string | null): BodyReport {
  const b = sections(body);
  const t = template === null ? null : sections(template);
  const rows = REQUIRED.map((h) => ({ heading: h, state: sectionState(b, t, h) }));
  const home = homePathLines(body);
  return { sections: rows, home_path_lines: home, ok: rows.every((r) => r.state === "filled") && home.length === 0 };
}

export function renderBody(r: BodyReport): string[] {
  return [...r.sections.map((s) => `${s.heading}: ${s.state}`), ...r.home_path_lines.map((n) => `Line ${n}: [home_path] absolute path detected`)];
}
