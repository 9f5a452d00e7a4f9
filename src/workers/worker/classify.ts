/**
 * Mechanical classification (spawn-worker §2-1): each changed path gets the strictest surface class any policy
 * glob gives it; the floor is the highest class's T. `local` is T0 only while the diff is known and within
 * `local_max_lines` (otherwise it counts as tooling, T1). Any path no surface names -> NEEDS_CLASSIFICATION.
 * A proposed T below the floor is refused (the floor wins); above it is accepted.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";
import type { Policy } from "./policy.ts";
import { CLASS_FLOOR, type Grade, gradeRank, maxTier, SPAWN_MODE, type SurfaceClass, type Tier, tierRank } from "./tiers.ts";

interface PathClass {
  path: string;
  surface: string | null;
  class: SurfaceClass | null;
}

export interface GradeCheck {
  grade: Grade | null;
  profile_grade: Grade | null;
  verifier_grade: Grade | null;
  refusals: string[];
}

export interface Classification {
  verdict: "CLASSIFIED" | "NEEDS_CLASSIFICATION" | "DOWNGRADE_REFUSED" | "GRADE_REFUSED";
  floor: Tier | null;
  tier: Tier | null;
  proposed: Tier | null;
  spawn_mode: string | null;
  diff_lines: number | null;
  paths: PathClass[];
  unmatched: string[];
  notes: string[];
  grades: GradeCheck;
}

const STRICTNESS: Record<SurfaceClass, number> = { irreversible: 3, product: 2, tooling: 1, local: 0 };

function classifyPath(policy: Policy, path: string): PathClass {
  let best: PathClass = { path, surface: null, class: null };
  for (const s of policy.surfaces) {
    if (!s.paths.some((g) => new Bun.Glob(g).match(path))) continue;
    if (best.class === null || STRICTNESS[s.class] > STRICTNESS[best.class]) best = { path, surface: s.name, class: s.class };
  }
  return best;
}

export function checkGrades(grade?: Grade, profile?: Grade, verifier?: Grade): GradeCheck {
  const refusals: string[] = [];
  const implementer = profile ?? grade;
  if (grade && profile) {
    if (gradeRank(profile) < gradeRank(grade)) refusals.push(`profile grade ${profile} is below the task grade ${grade}: never lower the grade (for quota or any reason)`);
    if (gradeRank(profile) > gradeRank(grade) + 1) refusals.push(`profile grade ${profile} skips past ${grade}'s adjacent grade: promotion looks at the adjacent grade only`);
  }
  if (verifier && implementer && gradeRank(verifier) < gradeRank(implementer)) {
    refusals.push(`verifier grade ${verifier} is below the implementer grade ${implementer}: the verifier's grade must be at least the implementer's`);
  }
  return { grade: grade ?? null, profile_grade: profile ?? null, verifier_grade: verifier ?? null, refusals };
}

export function classify(policy: Policy, paths: readonly string[], diffLines: number | null, proposed: Tier | null, grades: GradeCheck): Classification {
  const classes = paths.map((p) => classifyPath(policy, p));
  const unmatched = classes.filter((c) => c.class === null).map((c) => c.path);
  const notes: string[] = [];
  const base = { proposed, diff_lines: diffLines, paths: classes, unmatched, notes, grades };
  if (unmatched.length > 0 || classes.length === 0) {
    return { ...base, verdict: "NEEDS_CLASSIFICATION", floor: null, tier: null, spawn_mode: null };
  }
  let floor: Tier = "T0";
  for (const c of classes) {
    let t = CLASS_FLOOR[c.class!];
    if (c.class === "local" && (diffLines === null || diffLines > policy.local_max_lines)) {
      t = "T1";
      const why = diffLines === null ? "the diff size is unknown" : `the diff is ${diffLines} lines`;
      if (!notes.some((n) => n.startsWith("local"))) notes.push(`local surface counts as T1: ${why} (T0 needs <= ${policy.local_max_lines} lines)`);
    }
    floor = maxTier(floor, t);
  }
  if (proposed && tierRank(proposed) < tierRank(floor)) {
    notes.push(`downgrade refused: proposed ${proposed} is below the surface floor ${floor}`);
    return { ...base, verdict: "DOWNGRADE_REFUSED", floor, tier: floor, spawn_mode: SPAWN_MODE[floor] };
  }
  const tier = proposed ?? floor;
  if (proposed && tierRank(proposed) > tierRank(floor)) notes.push(`raised to ${proposed} above the floor ${floor}`);
  const verdict = grades.refusals.length ? "GRADE_REFUSED" : "CLASSIFIED";
  return { ...base, verdict, floor, tier, spawn_mode: SPAWN_MODE[tier] };
}

/**
 * Changed paths and changed line count (added + deleted) of a checkout against `base`, working tree included.
 * NUL-separated output (`-z`): without it git quotes a path with a tab or a non-ASCII byte (`"\355\225\234.md"`
 * for a Hangul name), and the quoted text matches no surface glob.
 */
export async function diffSurface(ctx: Ctx, repo: string, base: string): Promise<{ paths: string[]; lines: number }> {
  // A base that looks like an option would be read as one by git (`--output=<file>` writes a file).
  if (base.startsWith("-")) throw new Error(`diff base '${base}' must be a ref, not an option`);
  const r = await git(ctx, repo, ["diff", "--numstat", "--no-renames", "-z", base, "--"]);
  if (!r.ok) throw new Error(`git diff against ${base} failed: ${r.why}`);
  const u = await git(ctx, repo, ["ls-files", "--others", "--exclude-standard", "-z"]);
  if (!u.ok) throw new Error(`git ls-files failed: ${u.why}`);
  const paths: string[] = [];
  let lines = 0;
  for (const rec of r.stdout.split("\0").filter(Boolean)) {
    const [a, d, ...p] = rec.split("\t");
    paths.push(p.join("\t"));
    lines += (Number(a) || 0) + (Number(d) || 0);
  }
  for (const p of u.stdout.split("\0").filter(Boolean)) {
    paths.push(p);
    lines += untrackedLines(join(repo, p));
  }
  return { paths, lines };
}

/** A new file's lines all count as added; an unreadable one counts as big (it cannot prove it is small). */
function untrackedLines(path: string): number {
  try {
    const t = readFileSync(path, "utf8");
    return t === "" ? 0 : t.split("\n").length - (t.endsWith("\n") ? 1 : 0);
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}
