/** The sandbox argv and profile generators, path handling, and the three-layer settings merge and evaluation (D39). */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { ancestorsOf, bwrapArgv, DenyPathError, detectMechanism, findExecutable, macProfile, minimalPaths, missingLine, resolveDenyPaths, sandboxArgv, sbplString } from "../../../src/hooks/sandbox/mechanism.ts";
import { claudeAbs, editDenyRule, evaluateLayers, mergeLayers, ProductPathError, productPaths, srtDenyWrite } from "../../../src/hooks/sandbox/layers.ts";
import { SettingsError } from "../../../src/hooks/session/install.ts";
import { mergeScopes } from "../../../src/hooks/sandbox/doctor.ts";
import { tempDir } from "../../helpers/paths.ts";

describe("deny paths", () => {
  test("minimalPaths: duplicates and nested paths dropped, shortest first", () => {
    expect(minimalPaths(["/a/b/c", "/a/b", "/x", "/a/b", "/a/bc"])).toEqual(["/x", "/a/b", "/a/bc"]);
    expect(minimalPaths(["/", "/a"])).toEqual(["/"]);
  });

  test("ancestorsOf: every proper ancestor below /, outermost first, none inside a denied path", () => {
    expect(ancestorsOf(["/srv/code/product"])).toEqual(["/srv", "/srv/code"]);
    expect(ancestorsOf(["/srv/code/p1", "/srv/other/p2"])).toEqual(["/srv", "/srv/code", "/srv/other"]);
    expect(ancestorsOf(["/p"])).toEqual([]);
    expect(ancestorsOf(["/"])).toEqual([]);
  });

  test("resolveDenyPaths: realpath (a symlink is its target), a missing path is an error", () => {
    const d = tempDir("sbx-unit-");
    mkdirSync(join(d, "product"));
    symlinkSync(join(d, "product"), join(d, "link"));
    expect(resolveDenyPaths(["link", "product/"], d)).toEqual([join(d, "product")]);
    expect(() => resolveDenyPaths(["nope"], d)).toThrow(DenyPathError);
    expect(() => resolveDenyPaths(["nope"], d)).toThrow("--deny-write nope: no such file or directory");
    symlinkSync(join(d, "loop"), join(d, "loop"));
    expect(() => resolveDenyPaths(["loop"], d)).toThrow("symlink loop");
  });
});

describe("bubblewrap argv", () => {
  test("/ as it is, ancestors pinned, each path read-only, cwd, status fd, then the command", () => {
    expect(bwrapArgv("/usr/bin/bwrap", ["/srv/code/product"], "/work", 3)).toEqual([
      "/usr/bin/bwrap",
      "--dev-bind",
      "/",
      "/",
      "--dev-bind",
      "/srv",
      "/srv",
      "--dev-bind",
      "/srv/code",
      "/srv/code",
      "--ro-bind",
      "/srv/code/product",
      "/srv/code/product",
      "--unshare-pid",
      "--proc",
      "/proc",
      "--cap-drop",
      "ALL",
      "--die-with-parent",
      "--chdir",
      "/work",
      "--json-status-fd",
      "3",
      "--",
    ]);
    expect(sandboxArgv({ name: "bubblewrap", path: "bwrap" }, ["/p"], "/", ["ls", "-la"])).toEqual([
      "bwrap",
      "--dev-bind",
      "/",
      "/",
      "--ro-bind",
      "/p",
      "/p",
      "--unshare-pid",
      "--proc",
      "/proc",
      "--cap-drop",
      "ALL",
      "--die-with-parent",
      "--chdir",
      "/",
      "--",
      "ls",
      "-la",
    ]);
  });
});

describe("macOS sandbox-exec profile", () => {
  test("allow default, deny writes under each path, deny writes to each ancestor's own entry", () => {
    expect(macProfile(["/Users/me/code/product"])).toBe(
      ["(version 1)", "(allow default)", '(deny file-write* (subpath "/Users/me/code/product"))', '(deny file-write* (literal "/Users"))', '(deny file-write* (literal "/Users/me"))', '(deny file-write* (literal "/Users/me/code"))', ""].join("\n"),
    );
  });

  test("string literals escape quotes and backslashes (no profile injection)", () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    const p = macProfile(['/x/") (allow file-write* (subpath "/']);
    expect(p).toContain('(deny file-write* (subpath "/x/\\") (allow file-write* (subpath \\"/"))');
    expect(p.split("\n").filter((l) => l.startsWith("(allow")).length).toBe(1);
  });

  test("sandboxArgv: sandbox-exec -p <profile> <command>", () => {
    expect(sandboxArgv({ name: "sandbox-exec", path: "/usr/bin/sandbox-exec" }, ["/p"], "/", ["claude"])).toEqual(["/usr/bin/sandbox-exec", "-p", macProfile(["/p"]), "claude"]);
  });
});

describe("mechanism detection", () => {
  test("bwrap on PATH on Linux; none elsewhere; the missing line says how to install", () => {
    const d = tempDir("sbx-bin-");
    writeFileSync(join(d, "bwrap"), "#!/bin/sh\n");
    chmodSync(join(d, "bwrap"), 0o755);
    writeFileSync(join(d, "not-exec"), "");
    expect(detectMechanism("linux", d, "/")).toEqual({ name: "bubblewrap", path: join(d, "bwrap") });
    expect(detectMechanism("linux", "/nonexistent", "/")).toBeNull();
    expect(detectMechanism("win32", d, "/")).toBeNull();
    expect(findExecutable("not-exec", d, "/")).toBeNull();
    expect(missingLine("linux")).toContain("apt-get install bubblewrap");
    expect(missingLine("win32")).toContain("only Linux (bubblewrap) and macOS (sandbox-exec)");
  });
});

describe("the three layers in Claude Code settings", () => {
  test("mergeLayers adds every key once, keeps what was there, and a second merge changes nothing", () => {
    const s: Record<string, unknown> = { model: "x", sandbox: { network: { allowedDomains: ["github.com"] }, filesystem: { denyWrite: ["//etc"] } }, permissions: { deny: ["Read(.env)"], allow: ["Bash(ls)"] } };
    const first = mergeLayers(s, ["/srv/product"]);
    expect(first.map((c) => `${c.change} ${c.setting} ${c.value}`)).toEqual([
      "added sandbox.enabled true",
      "added sandbox.failIfUnavailable true",
      "added sandbox.allowUnsandboxedCommands false",
      "added sandbox.filesystem.denyWrite //srv/product",
      "added permissions.deny Edit(//srv/product/**)",
    ]);
    expect(s).toEqual({
      model: "x",
      sandbox: { network: { allowedDomains: ["github.com"] }, filesystem: { denyWrite: ["//etc", "//srv/product"] }, enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false },
      permissions: { deny: ["Read(.env)", "Edit(//srv/product/**)"], allow: ["Bash(ls)"] },
    });
    const copy = structuredClone(s);
    expect(mergeLayers(s, ["/srv/product"]).every((c) => c.change === "unchanged")).toBe(true);
    expect(s).toEqual(copy);
  });

  test("a fallback switched on is switched off (updated), never left", () => {
    const s: Record<string, unknown> = { sandbox: { enabled: false, allowUnsandboxedCommands: true } };
    const c = mergeLayers(s, ["/p"]);
    expect(c[0]).toEqual({ setting: "sandbox.enabled", value: true, change: "updated" });
    expect(c[2]).toEqual({ setting: "sandbox.allowUnsandboxedCommands", value: false, change: "updated" });
  });

  test("a settings shape it cannot merge into refuses", () => {
    expect(() => mergeLayers({ sandbox: [] }, ["/p"])).toThrow(SettingsError);
    expect(() => mergeLayers({ sandbox: { filesystem: { denyWrite: "x" } } }, ["/p"])).toThrow("'sandbox.filesystem.denyWrite' in the settings file is not an array");
    expect(() => mergeLayers({ permissions: { deny: {} } }, ["/p"])).toThrow(SettingsError);
  });

  test("productPaths: both spellings of a symlinked product; missing or pattern characters refused", () => {
    const d = tempDir("sbx-prod-");
    mkdirSync(join(d, "real"));
    symlinkSync(join(d, "real"), join(d, "link"));
    expect(productPaths(["link"], d)).toEqual([join(d, "link"), join(d, "real")]);
    expect(() => productPaths(["nope"], d)).toThrow(ProductPathError);
    mkdirSync(join(d, "a*b"));
    expect(() => productPaths(["a*b"], d)).toThrow("holds a character Claude Code reads as a pattern");
  });

  test("path spellings: //abs for Claude Code, /abs for srt", () => {
    expect(claudeAbs("/srv/p")).toBe("//srv/p");
    expect(editDenyRule("/srv/p")).toBe("Edit(//srv/p/**)");
    expect(srtDenyWrite(["//srv/p", "~/x", "./y"])).toEqual(["/srv/p", "~/x", "./y"]);
  });

  test("evaluateLayers: each layer and its checks; protected means layer 1", () => {
    const host = { platform: "linux" as const, which: (n: string) => `/usr/bin/${n}` };
    const s: Record<string, unknown> = {};
    mergeLayers(s, ["/srv/p"]);
    const none = evaluateLayers({}, ["/srv/p"], host);
    expect(none.map((l) => [l.name, l.active])).toEqual([
      ["sandbox", false],
      ["permissions", false],
      ["guard", false],
    ]);
    const two = evaluateLayers(s, ["/srv/p"], host);
    expect(two.map((l) => [l.name, l.active])).toEqual([
      ["sandbox", true],
      ["permissions", true],
      ["guard", false],
    ]);
    s.hooks = { PreToolUse: [{ matcher: "Edit|Write|MultiEdit|NotebookEdit|Bash", hooks: [{ type: "command", command: "/opt/mogui hook product-path-guard" }] }] };
    expect(evaluateLayers(s, ["/srv/p"], host).every((l) => l.active)).toBe(true);
    // The guard on Bash alone does not cover the file tools.
    expect(evaluateLayers({ ...s, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ command: "mogui hook product-path-guard" }] }] } }, ["/srv/p"], host)[2]!.active).toBe(false);
    // No bubblewrap on Linux: layer 1 is off.
    const noBwrap = evaluateLayers(s, ["/srv/p"], { platform: "linux", which: (n) => (n === "bwrap" ? null : `/usr/bin/${n}`) });
    expect(noBwrap[0]!.active).toBe(false);
    expect(noBwrap[0]!.checks.find((c) => !c.ok)!.detail).toContain("apt-get install bubblewrap");
    // Another product, or none known, is not denied.
    expect(evaluateLayers(s, ["/srv/other"], host)[0]!.active).toBe(false);
    expect(evaluateLayers(s, [], host)[0]!.active).toBe(false);
    // A command excluded from the sandbox (it runs outside it): off.
    const ex = evaluateLayers({ ...s, sandbox: { ...(s.sandbox as object), excludedCommands: ["git"] } }, ["/srv/p"], host)[0]!;
    expect([ex.active, ex.checks.find((c) => !c.ok)?.detail]).toEqual([false, 'sandbox.excludedCommands run outside the sandbox: "git"']);
    // The fallback left on: off.
    expect(evaluateLayers({ ...s, sandbox: { ...(s.sandbox as object), allowUnsandboxedCommands: true } }, ["/srv/p"], host)[0]!.active).toBe(false);
  });
});

describe("the scopes Claude Code merges", () => {
  test("the highest scope that sets a switch wins; deny lists and PreToolUse hooks add up", () => {
    const local = { sandbox: { allowUnsandboxedCommands: true } };
    const project = { sandbox: { enabled: true, allowUnsandboxedCommands: false, filesystem: { denyWrite: ["//p"] } }, permissions: { deny: ["Edit(//p/**)"] } };
    const user = { sandbox: { enabled: false, failIfUnavailable: true, excludedCommands: ["docker"], filesystem: { denyWrite: ["//q"] } }, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [] }] } };
    expect(mergeScopes([{}, local, project, user])).toEqual({
      sandbox: { allowUnsandboxedCommands: true, enabled: true, failIfUnavailable: true, excludedCommands: ["docker"], filesystem: { denyWrite: ["//p", "//q"] } },
      permissions: { deny: ["Edit(//p/**)"] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [] }] },
    });
  });
});
