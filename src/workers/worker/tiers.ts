/** The two axes of the spawn-worker standard (§2): scale T (how thick the verification) and grade (which model). */
const TIERS = ["T0", "T1", "T2", "T3"] as const;
export type Tier = (typeof TIERS)[number];

export const SURFACE_CLASSES = ["irreversible", "product", "tooling", "local"] as const;
export type SurfaceClass = (typeof SURFACE_CLASSES)[number];

export const CLASS_FLOOR: Record<SurfaceClass, Tier> = { irreversible: "T3", product: "T2", tooling: "T1", local: "T0" };

/** Derived from T, never blank (§2-1 spawn_mode). */
export const SPAWN_MODE: Record<Tier, string> = {
  T0: "no-spawn",
  T1: "worker+self-check",
  T2: "worker+independent-verifier",
  T3: "worker+cross-family-verifier",
};

export function tierRank(t: Tier): number {
  return TIERS.indexOf(t);
}

export function isTier(s: string): s is Tier {
  return (TIERS as readonly string[]).includes(s);
}

export function maxTier(a: Tier, b: Tier): Tier {
  return tierRank(a) >= tierRank(b) ? a : b;
}

/** Lowest to highest. */
const GRADES = ["C", "B", "A", "A+", "S", "S+"] as const;
export type Grade = (typeof GRADES)[number];

export function isGrade(s: string): s is Grade {
  return (GRADES as readonly string[]).includes(s);
}

export function gradeRank(g: Grade): number {
  return GRADES.indexOf(g);
}

export const SEVERITIES = ["BLOCKER", "SHOULD", "NICE"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Rework rounds a job may open before it must go to a person (§5: hard cap 3). */
export const MAX_ROUNDS = 3;
