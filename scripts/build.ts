// Builds dist/mogui, the single executable. Build flags: --bytecode needs --format=esm, and the
// two --no-compile-autoload-* flags stop the binary from reading the user's .env and bunfig.toml.
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const outfile = process.env.MOGUI_BUILD_OUTFILE ?? join(root, "dist", "mogui");
mkdirSync(join(outfile, ".."), { recursive: true });
const args = [
  "build", join(root, "src", "cli.ts"),
  "--compile", "--production", "--minify", "--sourcemap", "--bytecode", "--format=esm",
  "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig",
  "--outfile", outfile,
];
const p = Bun.spawnSync([process.execPath, ...args], { cwd: root, stdout: "inherit", stderr: "inherit" });
if (p.exitCode !== 0) {
  console.error(`build failed (exit ${p.exitCode})`);
  process.exitCode = p.exitCode ?? 1;
}
