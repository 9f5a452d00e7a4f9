// Issue 26 §1: docs/ci.md, tested. Its workflow's shell steps (`run:` of "Install mogui", "Redaction gate",
// "Contract tests against the fakes") run as written under sh, against a release directory made from the built
// binary and served over HTTP on 127.0.0.1: the install verifies the pinned SHA256SUMS, install.sh and the archive;
// a tampered archive and a wrong pin install nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { hostTarget } from "../../scripts/build.ts";
import { binaryPath } from "../helpers/binary.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const sha256 = (p: string) => new Bun.CryptoHasher("sha256").update(readFileSync(p)).digest("hex");

/** The `run:` script of the workflow step named `name` in docs/ci.md's yaml block. */
export function stepScript(name: string, text = readFileSync(join(ROOT, "docs", "ci.md"), "utf8")): string {
  const yaml = /```yaml\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
  const lines = yaml.split("\n");
  const at = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  if (at < 0) throw new Error(`docs/ci.md: no step '${name}'`);
  const run = lines.findIndex((l, i) => i > at && /^\s+run:/.test(l));
  const inline = /^\s+run:\s*(.*)$/.exec(lines[run]!)![1]!;
  if (inline && inline !== "|") return `${inline}\n`;
  const indent = /^\s*/.exec(lines[run + 1]!)![0].length;
  const body: string[] = [];
  for (const l of lines.slice(run + 1)) {
    if (l.trim() && /^\s*/.exec(l)![0].length < indent) break;
    body.push(l.slice(indent));
  }
  return `${body.join("\n").trimEnd()}\n`;
}

function release(dir: string, tamper = false): string {
  const stem = `mogui-${pkg.version}-${hostTarget()}`;
  mkdirSync(join(dir, "stage", stem), { recursive: true });
  // A stand-in that runs the built binary: the archive stays small (gzip of the real 100+ MB binary takes a minute
  // on a loaded machine), and every byte of it is still what install.sh verifies and installs.
  writeFileSync(join(dir, "stage", stem, "mogui"), `#!/bin/sh\nexec ${JSON.stringify(binaryPath())} "$@"\n`, { mode: 0o755 });
  const rel = join(dir, "rel");
  mkdirSync(rel);
  const tar = Bun.spawnSync(["tar", "-czf", join(rel, `${stem}.tar.gz`), "-C", join(dir, "stage"), stem]);
  if (tar.exitCode !== 0) throw new Error(tar.stderr.toString());
  copyFileSync(join(ROOT, "scripts", "install.sh"), join(rel, "install.sh"));
  writeFileSync(join(rel, "SHA256SUMS"), [`${stem}.tar.gz`, "install.sh"].map((f) => `${sha256(join(rel, f))}  ${f}\n`).join(""));
  if (tamper) {
    const a = join(rel, `${stem}.tar.gz`);
    const b = readFileSync(a);
    b[b.length - 50] = b[b.length - 50]! ^ 0xff;
    writeFileSync(a, b);
  }
  return rel;
}

let server: ReturnType<typeof Bun.serve>;
const dirs: Record<string, string> = {};
beforeAll(() => {
  dirs.good = release(tempDir("ci-good-"));
  dirs.tampered = release(tempDir("ci-bad-"), true);
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const [, which, file] = new URL(req.url).pathname.split("/");
      const f = dirs[which!] ? join(dirs[which!]!, file!) : "";
      return f && existsSync(f) ? new Response(Bun.file(f)) : new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));

async function sh(script: string, env: Record<string, string>, cwd: string) {
  const p = Bun.spawn(["sh", "-c", script], { cwd, env: { PATH: "/usr/bin:/bin", HOME: cwd, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

function runner(which: string, pin = sha256(join(dirs.good!, "SHA256SUMS"))) {
  const work = tempDir("ci-work-");
  const tmp = join(work, "runner-temp");
  mkdirSync(tmp);
  return { work, tmp, env: { MOGUI_RELEASE_URL: `http://127.0.0.1:${server.port}/${which}`, MOGUI_SUMS_SHA256: pin, RUNNER_TEMP: tmp, GITHUB_PATH: join(work, "github-path") } };
}

describe("docs/ci.md: the workflow's shell steps", () => {
  test("Install mogui: pinned SHA256SUMS, install.sh and the archive verified; the binary runs; GITHUB_PATH gets its bin", async () => {
    const r = runner("good");
    const out = await sh(stepScript("Install mogui"), r.env, r.work);
    if (out.code !== 0) console.error(out.stderr);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`mogui ${pkg.version}`);
    expect(readFileSync(r.env.GITHUB_PATH, "utf8")).toBe(`${join(r.tmp, "mogui", "bin")}\n`);
    expect(existsSync(join(r.work, "install.sh"))).toBe(false);
  });

  test("a tampered archive, or a SHA256SUMS that is not the pinned one, installs nothing and fails the step", async () => {
    const bad = runner("tampered", sha256(join(dirs.tampered!, "SHA256SUMS")));
    const t = await sh(stepScript("Install mogui"), bad.env, bad.work);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain("checksum mismatch");
    expect(existsSync(join(bad.tmp, "mogui", "bin", "mogui"))).toBe(false);
    const pin = runner("good", "0".repeat(64));
    const p = await sh(stepScript("Install mogui"), pin.env, pin.work);
    expect(p.code).not.toBe(0);
    expect(existsSync(join(pin.tmp, "mogui", "bin", "mogui"))).toBe(false);
  });

  test("Redaction gate writes a SARIF 2.1.0 report; Contract tests pass against the fakes", async () => {
    const r = runner("good");
    expect((await sh(stepScript("Install mogui"), r.env, r.work)).code).toBe(0);
    const path = `${join(r.tmp, "mogui", "bin")}:/usr/bin:/bin`;
    const repo = join(r.work, "repo");
    mkdirSync(repo);
    const git = (...a: string[]) => Bun.spawnSync(["git", "-c", "user.name=ci", "-c", "user.email=ci@example.invalid", ...a], { cwd: repo, env: { PATH: "/usr/bin:/bin", HOME: r.work } });
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "README.md"), "# app\n");
    git("add", ".");
    git("commit", "-qm", "init");
    const gate = await sh(stepScript("Redaction gate"), { ...r.env, PATH: path }, repo);
    expect(gate.code).toBe(0);
    const sarif = JSON.parse(readFileSync(join(repo, "redaction.sarif"), "utf8"));
    expect(sarif.version).toBe("2.1.0");
    const contract = await sh(stepScript("Contract tests against the fakes"), { ...r.env, PATH: path }, repo);
    if (contract.code !== 0) console.error(contract.stderr);
    expect(contract.code).toBe(0);
    expect(JSON.parse(contract.stdout.trim().split("\n").at(-1)!)).toMatchObject({ valid: true });
  });
});
