// Issue 17 §1-2 (D36): the host target built through scripts/release.ts (the six-target build is `npm run release`,
// not `npm test`): its archive, its SHA256SUMS line, the unpacked binary's --version fields; then scripts/install.sh
// under dash (else sh) against that directory, a file:// URL and an http URL, a tampered copy and a missing target.
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import manifest from "../../master-ops/MANIFEST.json" with { type: "json" };
import { zip } from "../../scripts/archive.ts";
import { hostTarget } from "../../scripts/build.ts";
import { TARGETS } from "../../scripts/release.ts";
import { BUN, ROOT, tempDir } from "../helpers/paths.ts";

const target = hostTarget();
const supported = (TARGETS as readonly string[]).includes(target);
const SH = Bun.which("dash") ?? "/bin/sh";
const stem = `mogui-${pkg.version}-${target}`;
const sha256 = (p: string) => new Bun.CryptoHasher("sha256").update(readFileSync(p)).digest("hex");
let out = "";

beforeAll(() => {
  if (!supported) return;
  out = tempDir("release-");
  const p = Bun.spawnSync([BUN, join(ROOT, "scripts", "release.ts"), "--target", target, "--out", out], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`release failed: ${p.stderr.toString()}`);
});

function install(args: string[], env: Record<string, string> = {}) {
  const home = tempDir("home-");
  const p = Bun.spawnSync([SH, join(ROOT, "scripts", "install.sh"), ...args], {
    env: { PATH: "/usr/bin:/bin", HOME: home, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString(), home };
}

describe.skipIf(!supported)(`release of the host target (${target})`, () => {
  test("binary, archive, install.sh, SHA256SUMS (and the source map aside); each checksum line matches its file", () => {
    expect(readdirSync(out).sort()).toEqual(["SHA256SUMS", "install.sh", "sourcemaps", stem, `${stem}.tar.gz`].sort());
    // One folder per target: the binary's map and, the build being split, one map per lazily loaded chunk.
    expect(readdirSync(join(out, "sourcemaps"))).toEqual([target]);
    const maps = readdirSync(join(out, "sourcemaps", target));
    expect(maps).toContain(`${stem}.map`);
    expect(maps.every((m) => m.endsWith(".map"))).toBe(true);
    const lines = readFileSync(join(out, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    for (const f of ["install.sh", stem, `${stem}.tar.gz`]) expect(lines).toContain(`${sha256(join(out, f))}  ${f}`);
  });

  test("the archive holds <stem>/mogui, executable, whose --version names version, commit, target, date, template", () => {
    const x = tempDir("unpack-");
    expect(Bun.spawnSync(["tar", "-xzf", join(out, `${stem}.tar.gz`), "-C", x]).exitCode).toBe(0);
    expect(readdirSync(x)).toEqual([stem]);
    const bin = join(x, stem, "mogui");
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    expect(sha256(bin)).toBe(sha256(join(out, stem)));
    const commit = Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
    const info = JSON.parse(Bun.spawnSync([bin, "--version", "--json"]).stdout.toString());
    expect(info).toEqual({ version: pkg.version, commit, target, build_date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), template_version: manifest.template_version.replace(/^v/, "") });
    const line = Bun.spawnSync([bin, "--version"]).stdout.toString();
    expect(line).toBe(`mogui ${info.version} (${commit}, ${target}, ${info.build_date}; template ${info.template_version})\n`);
  });
});

describe.skipIf(!supported)(`scripts/install.sh under ${SH}`, () => {
  const installedOk = (r: ReturnType<typeof install>, prefix: string) => {
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const bin = join(prefix, "bin", "mogui");
    expect(sha256(bin)).toBe(sha256(join(out, stem)));
    expect(r.stdout).toContain(`installed mogui ${pkg.version} (`);
    // The next two commands, with the full path while the bin dir is not on PATH.
    expect(r.stdout).toContain(`next:\n  ${bin} config init`);
    expect(r.stdout).toContain(`\n  ${bin} demo`);
  };

  test("from a local directory (default ~/.local/bin) and from a file:// URL (--prefix)", () => {
    const a = install(["--from", out]);
    installedOk(a, join(a.home, ".local"));
    const prefix = join(tempDir("prefix-"), "p");
    installedOk(install(["--prefix", prefix], { MOGUI_RELEASE_URL: `file://${out}` }), prefix);
  });

  test("from an http base URL (curl or wget)", async () => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const f = join(out, new URL(req.url).pathname.split("/").pop()!);
        return existsSync(f) ? new Response(Bun.file(f)) : new Response("no", { status: 404 });
      },
    });
    try {
      const prefix = join(tempDir("prefix-"), "p");
      // Async spawn: the server answers on this same event loop.
      const p = Bun.spawn([SH, join(ROOT, "scripts", "install.sh"), "--from", `http://127.0.0.1:${server.port}/rel`, "--prefix", prefix], {
        env: { PATH: "/usr/bin:/bin", HOME: tempDir("home-") },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      installedOk({ code, stdout, stderr, home: "" }, prefix);
    } finally {
      server.stop(true);
    }
  });

  test("a tampered archive installs nothing: exit 1, one line", () => {
    const bad = tempDir("tampered-");
    for (const f of ["SHA256SUMS", `${stem}.tar.gz`]) copyFileSync(join(out, f), join(bad, f));
    const archive = join(bad, `${stem}.tar.gz`);
    const bytes = readFileSync(archive);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(archive, bytes);
    const prefix = join(tempDir("prefix-"), "p");
    const r = install(["--from", bad, "--prefix", prefix]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^install\.sh: checksum mismatch for mogui-.*\.tar\.gz: expected [0-9a-f]{64}, got [0-9a-f]{64}; nothing installed\n$/);
    expect(existsSync(prefix)).toBe(false);
  });

  test("a target the release does not hold installs nothing: exit 1, one line", () => {
    const other = target === "darwin-arm64" ? "linux-arm64" : "darwin-arm64";
    const prefix = join(tempDir("prefix-"), "p");
    const r = install(["--from", out, "--prefix", prefix, "--target", other]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`install.sh: no mogui archive for ${other} in ${out}/SHA256SUMS\n`);
    expect(existsSync(prefix)).toBe(false);
  });

  test("no release location is a usage error (exit 2)", () => {
    const r = install([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("install.sh: no release location: pass --from <url|dir> or set MOGUI_RELEASE_URL\n");
  });
});

// Offline (a network namespace with no interfaces) and with an empty runtime cache, a foreign target cannot fetch its
// runtime: the release names that target and Bun's reason, and exits 1.
const offline = process.getuid?.() === 0 && Bun.which("unshare") !== null && Bun.spawnSync(["unshare", "--net", "true"]).exitCode === 0;
test.skipIf(!offline)("a target whose runtime cannot be fetched is named, with the reason; exit 1", () => {
  const foreign = target === "darwin-arm64" ? "linux-arm64" : "darwin-arm64";
  const dir = tempDir("offline-");
  const p = Bun.spawnSync(["unshare", "--net", BUN, join(ROOT, "scripts", "release.ts"), "--target", foreign, "--out", join(dir, "out")], {
    cwd: ROOT,
    env: { ...process.env, BUN_INSTALL_CACHE_DIR: join(dir, "cache") },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(p.exitCode).toBe(1);
  const err = p.stderr.toString();
  expect(err).toMatch(new RegExp(`release: ${foreign} FAILED: .*download.*\\(Bun fetches the bun-${foreign} runtime from the npm registry`, "i"));
  expect(err).toContain(`release: 1 of 1 targets failed: ${foreign}`);
  expect(readFileSync(join(dir, "out", "SHA256SUMS"), "utf8")).toMatch(/^[0-9a-f]{64} {2}install\.sh\n$/);
});

test("the Windows zip writer makes an archive unzip accepts, holding <dir>/mogui.exe byte for byte", () => {
  const unzip = Bun.which("unzip");
  if (!unzip) return console.warn("release: unzip not installed; zip check skipped");
  const dir = tempDir("zip-");
  const data = new Uint8Array(200_000).map((_, i) => (i * 7919) % 251);
  writeFileSync(join(dir, "a.zip"), zip("mogui-1.0.0-windows-x64", "mogui.exe", data, Date.UTC(2026, 11, 2) / 1000));
  expect(Bun.spawnSync([unzip, "-t", "-q", join(dir, "a.zip")]).exitCode).toBe(0);
  mkdirSync(join(dir, "x"));
  expect(Bun.spawnSync([unzip, "-q", join(dir, "a.zip"), "-d", join(dir, "x")]).exitCode).toBe(0);
  expect(new Uint8Array(readFileSync(join(dir, "x", "mogui-1.0.0-windows-x64", "mogui.exe")))).toEqual(data);
});
