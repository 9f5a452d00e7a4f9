/** Exit tables of `sandbox run`, `sandbox check`, `hook install --product` and `hook doctor`, in process (D39). */
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRODUCT_REPO_PLACEHOLDER } from "../../../src/lib/config/instance.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
let product: string;
let home: string;
const env = (extra: Record<string, string> = {}) => ({ HOME: dir, MOGUI_HOME: home, PATH: "/usr/bin:/bin", ...extra });
const HAS_BWRAP = Bun.which("bwrap", { PATH: "/usr/bin:/bin" }) !== null;

beforeEach(() => {
  dir = tempDir("sbx-cmd-");
  product = join(dir, "product");
  home = join(dir, "home");
  mkdirSync(product);
  writeFileSync(join(product, "f"), "x\n");
});

describe("sandbox run", () => {
  test("usage: no --deny-write, no command, a path that does not exist, an unknown flag (exit 2)", async () => {
    const none = await runMain(["sandbox", "run", "--", "true"], { env: env(), cwd: dir });
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining("name at least one --deny-write <path>")]);
    expect((await runMain(["sandbox", "run", "--deny-write", product], { env: env(), cwd: dir })).code).toBe(2);
    const missing = await runMain(["sandbox", "run", "--deny-write", "nope", "--", "true"], { env: env(), cwd: dir });
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("--deny-write nope: no such file or directory")]);
    const typo = await runMain(["sandbox", "run", "--deny-wrte", product, "--", "true"], { env: env(), cwd: dir });
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringContaining("unknown flag --deny-wrte")]);
  });

  test("no mechanism: exit 2, one line naming it and how to install, the command never runs", async () => {
    const marker = join(dir, "ran");
    const r = await runMain(["sandbox", "run", "--deny-write", product, "--", "/bin/sh", "-c", `touch ${marker}`], { env: env({ PATH: "/nonexistent" }), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "sandbox run: bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap); the command was not run (--allow-unenforced runs it unprotected)\n",
    );
    expect(existsSync(marker)).toBe(false);
  });

  test("--allow-unenforced runs it unprotected and says so on stderr", async () => {
    const marker = join(dir, "ran");
    const r = await runMain(["sandbox", "run", "--allow-unenforced", "--deny-write", product, "--", "/bin/sh", "-c", `: > ${marker}; exit 5`], { env: env({ PATH: "/nonexistent" }), cwd: dir });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("running UNPROTECTED (--allow-unenforced)");
    expect(existsSync(marker)).toBe(true);
  });

  test.skipIf(!HAS_BWRAP)("a command that is not found: exit 127, nothing run", async () => {
    const r = await runMain(["sandbox", "run", "--deny-write", product, "--", "no-such-command-xyz"], { env: env(), cwd: dir });
    expect([r.code, r.stderr]).toEqual([127, "sandbox run: no-such-command-xyz: command not found\n"]);
  });

  test.skipIf(!HAS_BWRAP)("the command's exit status is handed through; the product stays as it was", async () => {
    const r = await runMain(["sandbox", "run", "--deny-write", product, "--", "/bin/sh", "-c", `( echo y > ${product}/f ) 2>/dev/null || exit 9`], { env: env(), cwd: dir });
    expect(r.code).toBe(9);
    expect(readFileSync(join(product, "f"), "utf8")).toBe("x\n");
  });
});

describe("sandbox check", () => {
  test("no mechanism: exit 2 (text and --json)", async () => {
    const r = await runMain(["sandbox", "check"], { env: env({ PATH: "/nonexistent" }), cwd: dir });
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining("apt-get install bubblewrap")]);
    const j = await runMain(["sandbox", "check", "--json"], { env: env({ PATH: "/nonexistent" }), cwd: dir });
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({ mechanism: null, enforced: false });
  });

  test.skipIf(!HAS_BWRAP)("the probe write is refused: exit 0, the mechanism named, each path read-only", async () => {
    const r = await runMain(["sandbox", "check", "--deny-write", product, "--json"], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ mechanism: "bubblewrap", path: expect.stringMatching(/bwrap$/), enforced: true, problem: null, paths: [{ path: product, read_only: true }] });
  });

  test("a --deny-write path that does not exist is a usage error", async () => {
    expect((await runMain(["sandbox", "check", "--deny-write", "nope"], { env: env(), cwd: dir })).code).toBe(2);
  });
});

describe("hook install --product: all three layers", () => {
  const settingsPath = () => join(dir, ".claude", "settings.json");

  test("writes the sandbox, the deny rule and the guard; a second run leaves the file byte-identical", async () => {
    mkdirSync(join(dir, ".claude"));
    writeFileSync(settingsPath(), JSON.stringify({ model: "x", sandbox: { network: { allowedDomains: ["github.com"] } }, permissions: { allow: ["Bash(ls)"] } }, null, 4));
    const r = await runMain(["hook", "install", "--host", "claude", "--bin", "/opt/mogui", "--product", product], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("added: sandbox.enabled true\n");
    expect(r.stdout).toContain(`added: sandbox.filesystem.denyWrite "/${product}"\n`);
    expect(r.stdout).toContain(`added: permissions.deny "Edit(/${product}/**)"\n`);
    const s = JSON.parse(readFileSync(settingsPath(), "utf8"));
    expect(s.model).toBe("x");
    expect(s.sandbox).toEqual({ network: { allowedDomains: ["github.com"] }, enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, filesystem: { denyWrite: [`/${product}`] } });
    expect(s.permissions).toEqual({ allow: ["Bash(ls)"], deny: [`Edit(/${product}/**)`] });
    expect(s.hooks.PreToolUse[0]).toEqual({ matcher: "Edit|Write|MultiEdit|NotebookEdit|Bash", hooks: [{ type: "command", command: "/opt/mogui hook product-path-guard" }] });
    const bytes = readFileSync(settingsPath());
    const again = await runMain(["hook", "install", "--host", "claude", "--bin", "/opt/mogui", "--product", product, "--json"], { env: env(), cwd: dir });
    const j = JSON.parse(again.stdout);
    expect([...j.changes, ...j.settings].every((c: { change: string }) => c.change === "unchanged")).toBe(true);
    expect(readFileSync(settingsPath()).equals(bytes)).toBe(true);
    // And the doctor agrees: every layer is on (bubblewrap and socat permitting).
    const d = await runMain(["hook", "doctor", "--product", product, "--json"], { env: env(), cwd: dir });
    const doc = JSON.parse(d.stdout);
    expect(doc.layers.map((l: { name: string }) => l.name)).toEqual(["sandbox", "permissions", "guard"]);
    expect(doc.layers[1].active && doc.layers[2].active).toBe(true);
    const hostReady = Bun.which("bwrap", { PATH: "/usr/bin:/bin" }) && Bun.which("socat", { PATH: "/usr/bin:/bin" });
    expect([d.code, doc.protected]).toEqual(hostReady ? [0, true] : [1, false]);
    // Claude Code merges the scopes: a local settings file that turns the unsandboxed fallback back on wins.
    writeFileSync(join(dir, ".claude", "settings.local.json"), JSON.stringify({ sandbox: { allowUnsandboxedCommands: true } }));
    const local = await runMain(["hook", "doctor", "--product", product, "--json"], { env: env(), cwd: dir });
    expect(local.code).toBe(1);
    expect(JSON.parse(local.stdout).settings_read).toContain(join(dir, ".claude", "settings.local.json"));
    // --settings reads that file alone.
    expect((await runMain(["hook", "doctor", "--product", product, "--settings", settingsPath()], { env: env(), cwd: dir })).code).toBe(hostReady ? 0 : 1);
  });

  test("the product defaults to the instance config's product_repo", async () => {
    const r = await runMain(["hook", "install", "--host", "claude", "--bin", "/opt/mogui", "--json"], { env: env({ MOGUI_PRODUCT_REPO: product }), cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).products).toEqual([product]);
  });

  test("no product configured, the example placeholder, or a product that does not exist: exit 2, nothing written", async () => {
    const none = await runMain(["hook", "install", "--host", "claude"], { env: env(), cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toStartWith("hook install: no product path: pass --product <path>, or set product_repo in ");
    mkdirSync(join(home, "config"), { recursive: true });
    writeFileSync(join(home, "config", "instance-runtime.json"), JSON.stringify({ product_repo: PRODUCT_REPO_PLACEHOLDER }));
    const placeholder = await runMain(["hook", "install", "--host", "claude"], { env: env(), cwd: dir });
    expect(placeholder.code).toBe(2);
    expect(placeholder.stderr).toContain("product_repo is still the example placeholder");
    expect(placeholder.stderr.split("\n").length).toBe(2);
    const gone = await runMain(["hook", "install", "--host", "claude", "--product", join(dir, "gone")], { env: env(), cwd: dir });
    expect([gone.code, gone.stderr]).toEqual([2, expect.stringContaining("no such file or directory")]);
    expect(existsSync(settingsPath())).toBe(false);
  });
});

describe("hook doctor", () => {
  test("no settings: every layer off, exit 1; bad JSON: exit 2", async () => {
    const r = await runMain(["hook", "doctor", "--product", product], { env: env(), cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("layer 1 OFF: Claude Code sandbox (kernel)\n");
    expect(r.stdout).toContain("NOT protected: layer 1 is off");
    writeFileSync(join(dir, "bad.json"), "{");
    expect((await runMain(["hook", "doctor", "--settings", "bad.json"], { env: env(), cwd: dir })).code).toBe(2);
  });

  test("no product known: reported, not protected", async () => {
    const r = await runMain(["hook", "doctor", "--json"], { env: env(), cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).product_problem).toStartWith("no product path");
  });
});
