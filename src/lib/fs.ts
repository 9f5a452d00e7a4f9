/** Small filesystem predicates shared by the families. */
import { statSync } from "node:fs";

/** A regular file (after following symlinks); false for anything missing or unreadable. */
export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
