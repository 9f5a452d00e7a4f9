// Builds dist/mogui, the single executable. Build flags: --bytecode needs --format=esm, and the two
// --no-compile-autoload-* flags stop the binary from reading the user's .env and bunfig.toml. The commit, target
// and build date that `mogui --version` prints are baked in with --define (D36); scripts/release.ts reuses this.
// --splitting keeps every lazily loaded command in a chunk of its own inside the executable, so a run loads only the
// command it runs: every start-up (and every hook call) is about 2-3 ms faster than one bundle of everything.
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

/** The release target name (D36) of this machine: linux-x64, linux-x64-musl, linux-arm64, darwin-*, windows-x64. */
export function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  let musl = false;
  if (os === "linux") {
    try {
      musl = readdirSync("/lib").some((f) => f.startsWith("ld-musl-"));
    } catch {
      musl = false;
    }
  }
  return `${os}-${process.arch}${musl ? "-musl" : ""}`;
}

/** Short commit of the source tree (`unknown` outside a git checkout). */
export function sourceCommit(): string {
  const p = Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  const sha = p.exitCode === 0 ? p.stdout.toString().trim() : "";
  return /^[0-9a-f]{7,}$/.test(sha) ? sha.slice(0, 7) : "unknown";
}

/** UTC build date; SOURCE_DATE_EPOCH (reproducible builds) wins over the clock. */
export function buildDate(): string {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()).toISOString().slice(0, 10);
}

export interface BuildInfo {
  commit: string;
  target: string;
  date: string;
}

/** `bun build` argv (without the bun executable) for one target; `bunTarget` unset = the running bun's own. */
export function buildArgs(outfile: string, info: BuildInfo, bunTarget?: string): string[] {
  const define = (k: string, v: string) => ["--define", `${k}=${JSON.stringify(v)}`];
  return [
    "build",
    join(ROOT, "src", "cli.ts"),
    "--compile",
    "--production",
    "--minify",
    "--sourcemap",
    "--bytecode",
    "--format=esm",
    "--splitting",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    ...(bunTarget ? [`--target=${bunTarget}`] : []),
    ...define("__MOGUI_COMMIT__", info.commit),
    ...define("__MOGUI_TARGET__", info.target),
    ...define("__MOGUI_BUILD_DATE__", info.date),
    "--outfile",
    outfile,
  ];
}

if (import.meta.main) {
  const outfile = process.env.MOGUI_BUILD_OUTFILE ?? join(ROOT, "dist", "mogui");
  mkdirSync(join(outfile, ".."), { recursive: true });
  const info = { commit: sourceCommit(), target: hostTarget(), date: buildDate() };
  const p = Bun.spawnSync([process.execPath, ...buildArgs(outfile, info)], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (p.exitCode !== 0) {
    console.error(`build failed (exit ${p.exitCode})`);
    process.exitCode = p.exitCode ?? 1;
  }
}
