// The README's test command: lint and format check (biome ci), dead code (knip), type-check (tsc --noEmit), build dist/mogui (the e2e
// tests run the real binary), then run every bun test. A finding or a type error fails the run before anything else
// (the tools' own output is printed as it is); otherwise the exit code is bun test's own.
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bun = process.execPath;

function run(argv: string[], env?: Record<string, string | undefined>): number {
  const p = Bun.spawnSync(argv, { cwd: root, stdout: "inherit", stderr: "inherit", env: env ?? process.env });
  return p.exitCode ?? 1;
}

// Lint and format (Biome, biome.json) and dead code (knip, knip.json) first: a finding fails the run before tsc.
const biome = run([join(root, "node_modules", ".bin", "biome"), "ci", ...(process.env.NO_COLOR ? ["--colors=off"] : []), "."]);
const knip = biome !== 0 ? biome : run([join(root, "node_modules", ".bin", "knip"), "--no-progress"]);
const tsc = knip !== 0 ? knip : run([join(root, "node_modules", ".bin", "tsc"), "--noEmit", "-p", "."]);
if (biome !== 0) {
  process.stderr.write("biome ci failed: fix the findings above (./node_modules/.bin/biome check --write . fixes the safe ones)\n");
  process.exitCode = biome;
} else if (knip !== 0) {
  process.stderr.write("knip failed: remove or un-export what it lists above, or justify it in knip.json (docs/contributing.md)\n");
  process.exitCode = knip;
} else if (tsc !== 0) {
  process.stderr.write("tsc --noEmit failed: fix the type errors above\n");
  process.exitCode = tsc;
} else {
  const build = run([bun, join(root, "scripts", "build.ts")]);
  if (build !== 0) {
    process.exitCode = build;
  } else {
    process.exitCode = run([bun, "test", "--timeout", "60000", ...process.argv.slice(2)], {
      ...process.env,
      MOGUI_TEST_BINARY: join(root, "dist", "mogui"),
    });
  }
}
