/**
 * The run directory (reference §13.6). Visible-split artefacts live under history/visible (safe to hand to a
 * proposer), everything else under history/private. Every write is atomic (temp file + rename), so a reader never
 * sees half a report and no `.tmp` file survives a run.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sortKeys } from "../../lib/output.ts";
import { atomicWrite as replaceAtomically } from "../../lib/fs.ts";
import { isVisibleSplit, type Split } from "./casebook.ts";

export const CANDIDATE_FILENAME = "candidate.json";
export const TASK_FILENAME = "task.md";
export const PROPOSAL_FILENAME = "proposal.md";

/** An atomic write (src/lib/fs.ts) that creates the parent directories first. */
export function atomicWrite(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  replaceAtomically(path, text, undefined, ".");
}

/** indent 2, sorted keys, trailing newline (the reference's json.dump form). */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

export const iterationName = (i: number) => String(i).padStart(3, "0");

export class AcceptanceRunLayout {
  constructor(readonly root: string) {}

  get manifest() {
    return join(this.root, "manifest.json");
  }
  get split() {
    return join(this.root, "split.json");
  }
  get splitMd() {
    return join(this.root, "split.md");
  }
  get reportJson() {
    return join(this.root, "report.json");
  }
  get reportMd() {
    return join(this.root, "report.md");
  }
  get visibleHistory() {
    return join(this.root, "history", "visible");
  }
  get privateHistory() {
    return join(this.root, "history", "private");
  }

  resultPath(split: Split, label: string): string {
    return join(isVisibleSplit(split) ? this.visibleHistory : this.privateHistory, split, label, "result.json");
  }

  iterationDir(i: number): string {
    return join(this.visibleHistory, "iterations", iterationName(i));
  }

  proposerWorkspace(i: number): string {
    return join(this.iterationDir(i), "proposer_workspace");
  }

  writeJson(path: string, value: unknown): void {
    atomicWrite(path, jsonText(value));
  }

  writeText(path: string, text: string): void {
    atomicWrite(path, text);
  }

  readDecisions(): unknown[] {
    const dir = join(this.visibleHistory, "iterations");
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return [];
    }
    const out: unknown[] = [];
    for (const n of names) {
      try {
        out.push(JSON.parse(readFileSync(join(dir, n, "decision.json"), "utf8")));
      } catch {}
    }
    return out;
  }
}
