/**
 * The regression log (reference §13.3): every gated case that failed an evaluation is pinned once (JSONL, one
 * case per line with origin "regression", ts, iteration, observed_split). `apply` re-admits pinned cases that the
 * book no longer defines, as holdout; a case the book still defines keeps the book's split (the book wins).
 */
import { readFileSync } from "node:fs";
import { appendRows, type LedgerWarning } from "../../lib/ledger.ts";
import { type CaseBook, caseFromMapping, caseToDict, type VerificationCase } from "./casebook.ts";

export class RegressionLog {
  constructor(
    readonly path: string,
    private readonly clock: () => number,
    /** Where a torn tail that an append sets aside is reported. */
    private readonly onWarning?: (w: LedgerWarning) => void,
  ) {}

  /** Pinned cases, first pin of an id wins; unparseable lines are skipped (the log is advisory input). */
  cases(): VerificationCase[] {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    const out: VerificationCase[] = [];
    const seen = new Set<string>();
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const raw = JSON.parse(line) as unknown;
        if (!raw || typeof raw !== "object" || Array.isArray(raw)) continue;
        const c = caseFromMapping(raw as Record<string, unknown>);
        if (seen.has(c.caseId)) continue;
        seen.add(c.caseId);
        out.push({ ...c, origin: "regression" });
      } catch {}
    }
    return out;
  }

  /** Appends each failure not pinned yet; returns the ids newly pinned. */
  promote(failures: readonly VerificationCase[], iteration: number): string[] {
    const pinned = new Set(this.cases().map((c) => c.caseId));
    const fresh = failures.filter((c) => !pinned.has(c.caseId) && (pinned.add(c.caseId), true));
    if (!fresh.length) return [];
    const ts = this.clock() / 1000;
    appendRows(
      this.path,
      fresh.map((c) => ({ ...caseToDict(c), origin: "regression", ts, iteration, observed_split: c.split })),
      { onWarning: this.onWarning },
    );
    return fresh.map((c) => c.caseId);
  }

  apply(book: CaseBook): CaseBook {
    return book.withCases(this.cases().map((c) => ({ ...c, split: "holdout" as const })));
  }
}
