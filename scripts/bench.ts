// `bun run bench <suite>`: figures an issue asks for, each as a ratio against a named baseline measured in the
// same run. A suite is scripts/bench/suite-<name>.ts with a default export (opts) => Promise<exit code>.
//   bun run bench startup [--runs N]
//   bun run bench mcp [--runs N]      (mogui mcp: initialize, tools/list, a read-only call vs --version)
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

export type Suite = (opts: { runs: number; bin: string; tmp: string; args: string[] }) => Promise<number>;

const SUITES: Record<string, string> = Object.fromEntries(
  readdirSync(join(import.meta.dir, "bench"))
    .filter((f) => /^suite-[a-z0-9-]+\.ts$/.test(f))
    .map((f) => [f.slice(6, -3), join(import.meta.dir, "bench", f)]),
);

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
  const run = (await import(SUITES[suite]!)).default as Suite;
  process.exitCode = await run({ runs, bin, tmp, args: argv.slice(1) });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
