// `npm run release [-- --target <t>]... [--out <dir>]`: the D36 release artifacts. For each target, the same build
// as scripts/build.ts with `--target=bun-<t>`, then `mogui-<version>-<t>` (.exe on Windows) and its archive
// (.tar.gz, .zip on Windows; both hold `mogui-<version>-<t>/mogui[.exe]`); then scripts/install.sh beside them and
// one SHA256SUMS over everything written (`sha256sum -c` format). Bun fetches each foreign target's runtime from the
// npm registry on first use; a target whose build fails is named with Bun's reason, the others are still built,
// and the exit code is 1.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { tarGz, zip } from "./archive.ts";
import { buildArgs, buildDate, ROOT, sourceCommit } from "./build.ts";

export const TARGETS = ["linux-x64", "linux-x64-musl", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
const BUILD_TIMEOUT_MS = 10 * 60_000;

class Usage extends Error {}

function usage(msg: string): never {
  throw new Usage(`release: ${msg}\nusage: bun scripts/release.ts [--target <${TARGETS.join("|")}>]... [--out <dir>]`);
}

function parse(argv: string[]): { targets: string[]; out: string } {
  const targets: string[] = [];
  let out = join(ROOT, "dist", "release");
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i] ?? usage(`${flag} needs a value`);
    if (flag === "--target") {
      const t = value();
      if (!(TARGETS as readonly string[]).includes(t)) usage(`unknown target '${t}'`);
      if (!targets.includes(t)) targets.push(t);
    } else if (flag === "--out") out = resolve(value());
    else usage(`unknown argument '${a}'`);
  }
  return { targets: targets.length ? targets : [...TARGETS], out };
}

const sha256 = (data: Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

/** Bun's own reason, trimmed to its error lines (the progress lines say nothing about the failure). */
function reason(stderr: string, stdout: string): string {
  const lines = `${stderr}\n${stdout}`
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const errs = lines.filter((l) => /error|fail|fetch|download|network|ENOTFOUND|ECONN|40\d|50\d/i.test(l));
  return (errs.length ? errs : lines.slice(-3)).join(" | ") || "no output";
}

function buildOne(target: string, out: string, commit: string, date: string): { files: string[] } | { error: string } {
  const exe = target.startsWith("windows") ? ".exe" : "";
  const stem = `mogui-${pkg.version}-${target}`;
  const bin = join(out, `${stem}${exe}`);
  // Built in a folder of its own: with --splitting, --sourcemap writes one map per chunk beside the binary.
  const work = join(out, `.build-${target}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const built = join(work, `${stem}${exe}`);
  const p = Bun.spawnSync([process.execPath, ...buildArgs(built, { commit, target, date }, `bun-${target}`)], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    timeout: BUILD_TIMEOUT_MS,
  });
  if (p.exitCode !== 0) {
    const why = p.signalCode ? `killed by ${p.signalCode} (timeout ${BUILD_TIMEOUT_MS / 60_000} min?)` : reason(p.stderr.toString(), p.stdout.toString());
    rmSync(work, { recursive: true, force: true });
    return { error: `${why} (Bun fetches the bun-${target} runtime from the npm registry on first use; check the registry is reachable)` };
  }
  // The source maps are kept for reading crash stacks, but out of the published set: sourcemaps/<target>/.
  renameSync(built, bin);
  const maps = readdirSync(work).filter((f) => f.endsWith(".map"));
  if (maps.length) {
    mkdirSync(join(out, "sourcemaps", target), { recursive: true });
    for (const m of maps) renameSync(join(work, m), join(out, "sourcemaps", target, m));
  }
  rmSync(work, { recursive: true, force: true });
  const data = new Uint8Array(readFileSync(bin));
  const mtime = Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000);
  const archive = exe ? `${stem}.zip` : `${stem}.tar.gz`;
  writeFileSync(join(out, archive), exe ? zip(stem, `mogui${exe}`, data, mtime) : tarGz(stem, "mogui", data, mtime));
  return { files: [`${stem}${exe}`, archive] };
}

function release(argv: string[]): number {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    console.error(e.message);
    return 2;
  }
  const { targets, out } = parsed;
  mkdirSync(out, { recursive: true });
  const commit = sourceCommit();
  const date = buildDate();
  const written: string[] = [];
  const failed: string[] = [];
  for (const t of targets) {
    console.error(`release: building ${t} ...`);
    const r = buildOne(t, out, commit, date);
    if ("error" in r) {
      failed.push(t);
      console.error(`release: ${t} FAILED: ${r.error}`);
    } else written.push(...r.files);
  }
  copyFileSync(join(ROOT, "scripts", "install.sh"), join(out, "install.sh"));
  written.push("install.sh");
  const sums = written.sort().map((f) => `${sha256(new Uint8Array(readFileSync(join(out, f))))}  ${f}\n`);
  writeFileSync(join(out, "SHA256SUMS"), sums.join(""));
  for (const f of [...written, "SHA256SUMS"]) console.log(`${join(out, f)}\t${Bun.file(join(out, f)).size}`);
  if (!failed.length) return 0;
  console.error(`release: ${failed.length} of ${targets.length} targets failed: ${failed.join(", ")}`);
  return 1;
}

if (import.meta.main) process.exitCode = release(process.argv.slice(2));
