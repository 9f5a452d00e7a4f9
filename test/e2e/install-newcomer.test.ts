// Issue 26 §1: the README's install line fails loudly when the download fails (`curl ... | sh` exited 0), and
// `install.sh --help` prints its header only (it printed a stray `set -u`). The README's own line is run, under dash,
// against a local HTTP server: one that has nothing, and one that serves install.sh but no release.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../helpers/paths.ts";

const SH = Bun.which("dash") ?? "/bin/sh";
const INSTALL = join(ROOT, "scripts", "install.sh");

/** The install command of the README's Install section (the line that fetches install.sh), comment dropped. */
function readmeInstallLine(): string {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = text.slice(text.indexOf("## Install"), text.indexOf("\n## ", text.indexOf("## Install") + 3));
  const line = section.split("\n").find((l) => /\binstall\.sh\b/.test(l) && /\b(curl|wget)\b/.test(l));
  if (!line) throw new Error("README's Install section has no curl/wget line fetching install.sh");
  return line.replace(/\s+#\s.*$/, "").trim();
}

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => (new URL(req.url).pathname.endsWith("/with-script/install.sh") ? new Response(Bun.file(INSTALL)) : new Response("not found", { status: 404 })),
});
afterAll(() => server.stop(true));

async function run(cmd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string; home: string }> {
  const home = tempDir("install-home-");
  const p = Bun.spawn([SH, "-c", cmd], { cwd: home, env: { PATH: "/usr/bin:/bin", HOME: home, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr, home };
}

describe("the README's install line", () => {
  test("does not pipe a download into sh", () => {
    expect(readmeInstallLine()).not.toMatch(/\|\s*(sh|bash)\b/);
  });

  test("a failed download is a non-zero exit, and nothing is installed", async () => {
    const r = await run(readmeInstallLine(), { MOGUI_RELEASE_URL: `http://127.0.0.1:${server.port}/missing` });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("404");
    expect(Bun.spawnSync(["test", "-e", join(r.home, ".local", "bin", "mogui")]).exitCode).toBe(1);
  });

  test("install.sh downloaded but no release there: install.sh's own exit 1", async () => {
    const r = await run(readmeInstallLine(), { MOGUI_RELEASE_URL: `http://127.0.0.1:${server.port}/with-script` });
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith("install.sh: ");
  });
});

test("install.sh --help prints its header comment only (no `set -u`), exit 0", () => {
  const p = Bun.spawnSync([SH, INSTALL, "--help"], { stdout: "pipe", stderr: "pipe" });
  expect(p.exitCode).toBe(0);
  const out = p.stdout.toString();
  expect(out).toStartWith("Install the mogui release binary for this machine");
  expect(out).not.toContain("set -u");
  expect(out.trimEnd().split("\n").at(-1)).toBe("(exit 2 for a bad argument). POSIX sh only: it runs under dash, busybox sh and macOS /bin/sh.");
  expect(out).toContain("curl -fsSLo install.sh <base>/install.sh && sh install.sh --from <base>");
});
