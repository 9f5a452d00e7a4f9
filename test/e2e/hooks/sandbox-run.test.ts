/**
 * `dist/mogui sandbox run` as a wrapper (issue 23 §1): stdin, stdout, stderr, the environment, the cwd and the exit
 * status pass through; SIGTERM, SIGHUP and SIGINT sent to mogui reach the command; a command killed by signal n
 * exits 128+n; a bubblewrap that cannot create a sandbox is reported as such (exit 2, the command never ran).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
let product: string;
let skip: string | null = null;
const env = (extra: Record<string, string> = {}) => ({ PATH: "/usr/bin:/bin", HOME: dir, LC_ALL: "C", ...extra });

beforeAll(() => {
  dir = tempDir("sbx-run-");
  product = join(dir, "code", "product");
  mkdirSync(product, { recursive: true });
  writeFileSync(join(product, "f"), "orig\n");
  const c = Bun.spawnSync([binaryPath(), "sandbox", "check"], { env: env() });
  if (c.exitCode !== 0) skip = `sandbox check exit ${c.exitCode}: ${c.stderr.toString().trim()}`;
  if (skip) console.log(`SKIPPED (not passed): ${skip}`);
});

function spawn(argv: string[], opts: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}) {
  return Bun.spawn([binaryPath(), "sandbox", "run", "--deny-write", product, "--", ...argv], {
    cwd: opts.cwd ?? dir,
    env: opts.env ?? env(),
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function done(p: ReturnType<typeof spawn>) {
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, stdout, stderr };
}

describe("sandbox run passes everything through", () => {
  test("stdin, stdout, stderr, env, cwd and the exit status", async () => {
    if (skip) return;
    const r = await done(spawn(["sh", "-c", 'read line; echo "in=$line"; echo "env=$MY_VAR"; echo "cwd=$(pwd)"; echo err >&2; exit 7'], { stdin: "hello\n", cwd: product, env: env({ MY_VAR: "v 1" }) }));
    expect(r).toEqual({ code: 7, stdout: `in=hello\nenv=v 1\ncwd=${product}\n`, stderr: "err\n" });
  });

  test("writes to the product fail, everything else is writable; a symlink to the product is the product", async () => {
    if (skip) return;
    symlinkSync(product, join(dir, "plink"));
    const r = await done(
      Bun.spawn([binaryPath(), "sandbox", "run", "--deny-write", join(dir, "plink"), "--", "sh", "-c", `echo x > ${product}/f; echo $?; echo y > ${dir}/beside; mv ${dir}/code ${dir}/moved; echo mv=$?`], { env: env(), stdout: "pipe", stderr: "pipe" }),
    );
    expect(r.stdout).toBe("2\nmv=1\n");
    expect(readFileSync(join(product, "f"), "utf8")).toBe("orig\n");
    expect(readFileSync(join(dir, "beside"), "utf8")).toBe("y\n");
    expect(existsSync(product)).toBe(true);
  });

  test("a command killed by a signal exits 128+n", async () => {
    if (skip) return;
    expect((await done(spawn(["sh", "-c", "kill -TERM $$"]))).code).toBe(143);
    expect((await done(spawn(["sh", "-c", "kill -KILL $$"]))).code).toBe(137);
  });

  for (const [sig, n] of [
    ["SIGTERM", 15],
    ["SIGHUP", 1],
    ["SIGINT", 2],
  ] as const) {
    test(`${sig} sent to mogui reaches the command`, async () => {
      if (skip) return;
      const name = sig.slice(3);
      const p = spawn(["sh", "-c", `trap 'echo got-${name}; exit ${40 + n}' ${name}; echo ready; while :; do sleep 0.05; done`]);
      const reader = p.stdout.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toBe("ready\n");
      p.kill(sig);
      let rest = "";
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        rest += new TextDecoder().decode(value);
      }
      expect({ code: await p.exited, out: rest }).toEqual({ code: 40 + n, out: `got-${name}\n` });
    });
  }
});

describe("a bubblewrap that cannot create a sandbox", () => {
  test("run: exit 2, said so, the command never ran; check: exit 2 with its message", async () => {
    const bin = join(dir, "fakebin");
    mkdirSync(bin);
    // What bwrap prints when unprivileged user namespaces are off; it never starts the command.
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n");
    chmodSync(join(bin, "bwrap"), 0o755);
    const marker = join(dir, "ran");
    const e = env({ PATH: `${bin}:/usr/bin:/bin` });
    const r = await done(spawn(["sh", "-c", `touch ${marker}`], { env: e }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bwrap: No permissions to creating new namespace");
    expect(r.stderr).toContain("sandbox run: bubblewrap is installed but could not create the sandbox");
    expect(existsSync(marker)).toBe(false);
    // --allow-unenforced: it runs, unprotected, and says so.
    const u = await done(Bun.spawn([binaryPath(), "sandbox", "run", "--allow-unenforced", "--deny-write", product, "--", "sh", "-c", `touch ${marker}`], { env: e, stdout: "pipe", stderr: "pipe" }));
    expect(u.code).toBe(0);
    expect(u.stderr).toContain("running UNPROTECTED (--allow-unenforced)");
    expect(existsSync(marker)).toBe(true);
    // hook doctor runs the same probe: every setting in place, but bubblewrap cannot work here, so not protected.
    const settings = join(dir, "claude-settings.json");
    expect(Bun.spawnSync([binaryPath(), "hook", "install", "--host", "claude", "--product", product, "--settings", settings], { env: e }).exitCode).toBe(0);
    const d = Bun.spawnSync([binaryPath(), "hook", "doctor", "--product", product, "--settings", settings, "--json"], { env: e });
    expect(d.exitCode).toBe(1);
    const sandboxLayer = JSON.parse(d.stdout.toString()).layers[0];
    expect(sandboxLayer.checks.filter((x: { ok: boolean }) => !x.ok).map((x: { name: string }) => x.name)).toEqual(["bubblewrap works"]);
    const c = Bun.spawnSync([binaryPath(), "sandbox", "check"], { env: e });
    expect(c.exitCode).toBe(2);
    expect(c.stdout.toString()).toContain("probe: NOT enforced: bubblewrap is installed but cannot create a sandbox here (bwrap: No permissions");
  });
});
