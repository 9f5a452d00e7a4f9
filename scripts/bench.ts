// `bun run bench <suite>`: figures an issue asks for, each as a ratio against a named baseline measured in the
// same run. Suites: startup. (Later issues add theirs to SUITES.)
//   bun run bench startup [--runs N]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startupSuite } from "./bench/startup.ts";

export const ROOT = join(import.meta.dir, "..");

const SUITES: Record<string, (opts: { runs: number; bin: string; tmp: string }) => Promise<number>> = {
  startup: startupSuite,
};

function usage(msg: string): never {
  console.error(`bench: ${msg}\nusage: bun run bench <${Object.keys(SUITES).join("|")}> [--runs N]`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const suite = argv[0];
if (!suite || !SUITES[suite]) usage(suite ? `unknown suite '${suite}'` : "name a suite");
let runs = 25;
const ri = argv.indexOf("--runs");
if (ri >= 0) {
  runs = Number(argv[ri + 1]);
  if (!Number.isInteger(runs) || runs < 3 || runs > 1000) usage("--runs takes a whole number from 3 to 1000");
}
const bin = process.env.MOGUI_BIN ?? join(ROOT, "dist", "mogui");
if (!existsSync(bin)) {
  const b = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "build.ts")], { stdout: "inherit", stderr: "inherit" });
  if (b.exitCode !== 0) usage("could not build dist/mogui");
}
const tmp = mkdtempSync(join(tmpdir(), "mogui-bench-"));
try {
  process.exitCode = await SUITES[suite]!({ runs, bin, tmp });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
