/**
 * The case book (reference §13.3): verification cases split into train (visible to the proposer), holdout
 * (private, gated) and scorecard (private, reported but never gating). `isVisibleSplit` is the ONE visibility
 * predicate: every place that routes data towards the proposer asks it, so widening VISIBLE_SPLITS moves the layout,
 * the visible manifest and the visible failures together.
 */
export type Split = "train" | "holdout" | "scorecard";
type Origin = "seed" | "regression";

const SPLITS: readonly Split[] = ["train", "holdout", "scorecard"];
export const GATED_SPLITS: readonly Split[] = ["train", "holdout"];
/** Mutable on purpose: tests widen it to prove every routing site follows the predicate. */
export const VISIBLE_SPLITS = new Set<Split>(["train"]);

export function isVisibleSplit(split: Split): boolean {
  return VISIBLE_SPLITS.has(split);
}

export class CaseBookError extends Error {
  override name = "CaseBookError";
}

const ALIASES: Record<string, Split> = {
  train: "train",
  visible: "train",
  holdout: "holdout",
  private: "holdout",
  scorecard: "scorecard",
  acceptance: "scorecard",
};

export function parseSplit(raw: unknown): Split {
  const s = ALIASES[String(raw).trim().toLowerCase()];
  if (!s) throw new CaseBookError(`unknown split: ${String(raw)}`);
  return s;
}

export interface VerificationCase {
  caseId: string;
  split: Split;
  stratum: string;
  command: string[];
  origin: Origin;
}

export interface CaseDict {
  case_id: string;
  split: Split;
  stratum: string;
  command: string[];
  origin: Origin;
}

export function caseToDict(c: VerificationCase): CaseDict {
  return { case_id: c.caseId, split: c.split, stratum: c.stratum, command: [...c.command], origin: c.origin };
}

const blank = (v: unknown) => typeof v !== "string" || v.trim() === "";

export function caseFromMapping(raw: Record<string, unknown>): VerificationCase {
  if (blank(raw.case_id)) throw new CaseBookError("case_id is required");
  const id = (raw.case_id as string).trim();
  if (blank(raw.stratum)) throw new CaseBookError(`case ${id}: stratum is required`);
  if (raw.split === undefined || raw.split === null) throw new CaseBookError(`case ${id}: split is required`);
  const split = parseSplit(raw.split);
  let origin: Origin = "seed";
  if (raw.origin !== undefined && raw.origin !== null) {
    const o = String(raw.origin).trim().toLowerCase();
    if (o !== "seed" && o !== "regression") throw new CaseBookError(`case ${id}: unknown origin ${String(raw.origin)}`);
    origin = o;
  }
  const command = Array.isArray(raw.command) ? raw.command.filter((x): x is string => typeof x === "string") : [];
  return { caseId: id, split, stratum: (raw.stratum as string).trim(), command, origin };
}

/** Python-list rendering, so the strata message reads the same as the reference's. */
const pyList = (xs: readonly string[]) => `[${xs.map((x) => `'${x}'`).join(", ")}]`;

export class CaseBook {
  constructor(readonly cases: readonly VerificationCase[]) {}

  casesForSplit(split: Split): VerificationCase[] {
    return this.cases.filter((c) => c.split === split);
  }

  gatedCases(): VerificationCase[] {
    return this.cases.filter((c) => GATED_SPLITS.includes(c.split));
  }

  visibleCases(): VerificationCase[] {
    return this.cases.filter((c) => isVisibleSplit(c.split));
  }

  privateCases(): VerificationCase[] {
    return this.cases.filter((c) => !isVisibleSplit(c.split));
  }

  caseIds(): string[] {
    return this.cases.map((c) => c.caseId);
  }

  /** Strata of seed-origin cases only: regression pins never decide coverage. */
  seedStrata(split: Split): string[] {
    return [
      ...new Set(
        this.casesForSplit(split)
          .filter((c) => c.origin === "seed")
          .map((c) => c.stratum),
      ),
    ].sort();
  }

  /** Extra cases appended; the first definition of an id wins. */
  withCases(extra: readonly VerificationCase[]): CaseBook {
    const seen = new Set(this.caseIds());
    const add = extra.filter((c) => !seen.has(c.caseId) && (seen.add(c.caseId), true));
    return new CaseBook([...this.cases, ...add]);
  }

  manifest(): Partial<Record<Split, CaseDict[]>> {
    return this.manifestOf(this.cases);
  }

  visibleManifest(): Partial<Record<Split, CaseDict[]>> {
    return this.manifestOf(this.visibleCases());
  }

  private manifestOf(cases: readonly VerificationCase[]): Partial<Record<Split, CaseDict[]>> {
    const out: Partial<Record<Split, CaseDict[]>> = {};
    for (const s of SPLITS) {
      const xs = cases.filter((c) => c.split === s);
      if (xs.length) out[s] = xs.map(caseToDict);
    }
    return out;
  }

  validate(): void {
    if (this.cases.length === 0) throw new CaseBookError("case book must define at least one case");
    const seen = new Set<string>();
    for (const c of this.cases) {
      if (seen.has(c.caseId)) throw new CaseBookError(`duplicate case_id: ${c.caseId}`);
      seen.add(c.caseId);
    }
    for (const s of GATED_SPLITS) if (this.casesForSplit(s).length === 0) throw new CaseBookError(`split ${s} must include at least one case`);
    const train = this.seedStrata("train");
    const holdout = this.seedStrata("holdout");
    if (train.join("\u0000") !== holdout.join("\u0000")) {
      throw new CaseBookError(`train and holdout must cover the same seed strata; got train=${pyList(train)} holdout=${pyList(holdout)}`);
    }
  }
}

/** An object with `cases`, or the list itself. */
export function loadCasebook(payload: unknown): CaseBook {
  const list = payload && typeof payload === "object" && !Array.isArray(payload) ? (payload as Record<string, unknown>).cases : payload;
  if (!Array.isArray(list)) throw new CaseBookError("cases must be a list");
  return new CaseBook(
    list.map((e) => {
      if (!e || typeof e !== "object" || Array.isArray(e)) throw new CaseBookError("case entry must be an object");
      return caseFromMapping(e as Record<string, unknown>);
    }),
  );
}

export function renderSplitMarkdown(book: CaseBook): string {
  const out = ["# Verification Split Manifest", ""];
  for (const s of SPLITS) {
    const xs = book.casesForSplit(s);
    if (!xs.length) continue;
    out.push(`## ${s} (${isVisibleSplit(s) ? "visible" : "private"})`, "");
    for (const c of xs) out.push(`- \`${c.stratum}\` [${c.caseId}] origin=\`${c.origin}\``);
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
