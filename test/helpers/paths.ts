import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const FIXTURES_BIN = join(ROOT, "fixtures", "bin");
export const BUN = process.execPath;

// Every temp dir of a test run lives under one root that test/setup.ts removes after the last test, so repeated
// runs (and CI on a reused machine) leave nothing behind in /tmp. MOGUI_KEEP_TEST_TMP=1 keeps it for debugging.
let runRoot: string | undefined;

function root(): string {
  runRoot ??= realpathSync(mkdtempSync(join(tmpdir(), "mogui-tests-")));
  return runRoot;
}

export function removeTempRoot(): void {
  if (runRoot && !process.env.MOGUI_KEEP_TEST_TMP) rmSync(runRoot, { recursive: true, force: true });
  runRoot = undefined;
}

/** A fresh temp dir (realpath'd: macOS /var -> /private/var would otherwise break path equality). */
export function tempDir(prefix = "mogui-test-"): string {
  mkdirSync(root(), { recursive: true });
  return mkdtempSync(join(root(), prefix));
}
