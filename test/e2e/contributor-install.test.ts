// Issue 26 §1: `npm install --ignore-scripts` (what hardened CI runs) leaves node_modules/.bin/bun a placeholder
// (bun's postinstall puts the binary there). The README says what to run: `node node_modules/bun/install.js`, which
// links the platform package npm already installed (@oven/bun-<platform>, an optional dependency) without the
// network. This test builds such a tree in a temp dir (the platform package hard-linked, so nothing of the real
// node_modules is moved) and checks the placeholder fails, then works after the documented command.
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../helpers/paths.ts";

const NM = join(ROOT, "node_modules");
// The platform package npm installed (its binary was moved into bun/bin by the postinstall that ran here).
const oven = existsSync(join(NM, "@oven")) ? readdirSync(join(NM, "@oven")).find((d) => existsSync(join(NM, "@oven", d, "package.json"))) : undefined;
const REAL_BUN = join(NM, "bun", "bin", "bun.exe");
const node = Bun.which("node");

describe.skipIf(!oven || !node)("npm install --ignore-scripts, then the documented step", () => {
  test("the placeholder .bin/bun fails; `node node_modules/bun/install.js` makes it Bun, offline", () => {
    const root = tempDir("ignore-scripts-");
    const nm = join(root, "node_modules");
    const bun = join(nm, "bun");
    mkdirSync(join(bun, "bin"), { recursive: true });
    for (const f of ["package.json", "install.js"]) copyFileSync(join(NM, "bun", f), join(bun, f));
    copyFileSync(join(NM, "bun", "bin", "README.txt"), join(bun, "bin", "README.txt"));
    // What the package ships before its postinstall: a placeholder, not a program.
    for (const f of ["bun.exe", "bunx.exe"]) writeFileSync(join(bun, "bin", f), "placeholder: see README.txt\n", { mode: 0o755 });
    // The platform package as --ignore-scripts leaves it: its package.json and bin/bun (hard-linked from ours).
    const pkgDir = join(nm, "@oven", oven!);
    mkdirSync(join(pkgDir, "bin"), { recursive: true });
    copyFileSync(join(NM, "@oven", oven!, "package.json"), join(pkgDir, "package.json"));
    try {
      linkSync(REAL_BUN, join(pkgDir, "bin", "bun"));
    } catch {
      copyFileSync(REAL_BUN, join(pkgDir, "bin", "bun"));
    }
    mkdirSync(join(nm, ".bin"));
    symlinkSync("../bun/bin/bun.exe", join(nm, ".bin", "bun"));
    const version = () => {
      try {
        const p = Bun.spawnSync([join(nm, ".bin", "bun"), "--version"], { cwd: root, stdout: "pipe", stderr: "pipe" });
        return { exitCode: p.exitCode, stdout: p.stdout.toString() };
      } catch (e) {
        return { exitCode: -1, stdout: String(e) }; // ENOEXEC: the placeholder is not a program
      }
    };
    expect(version().exitCode).not.toBe(0);

    // The README's step; no network: the platform package is already there (proxy pointed nowhere to be sure).
    const env = { PATH: "/usr/bin:/bin", HOME: root, HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", npm_config_registry: "http://127.0.0.1:9/" };
    const r = Bun.spawnSync([node!, join("node_modules", "bun", "install.js")], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) console.error(r.stderr.toString());
    expect(r.exitCode).toBe(0);
    const v = version();
    expect(v.exitCode).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(join(NM, "bun", "package.json"), "utf8")).version);
    // The real node_modules still has its binary (only the temp tree's hard link was moved).
    expect(Bun.spawnSync([REAL_BUN, "--version"]).exitCode).toBe(0);
  });

  test("the README documents the step", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").includes("npm install --ignore-scripts && node node_modules/bun/install.js")).toBe(true);
  });
});
