import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const FIXTURES_BIN = join(ROOT, "fixtures", "bin");
export const BUN = process.execPath;

/** A fresh temp dir (realpath'd: macOS /var -> /private/var would otherwise break path equality). */
export function tempDir(prefix = "mogui-test-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}
