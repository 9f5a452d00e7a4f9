import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitEnv, makeRepo, sh } from "../../helpers/git.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

const run = (args: string[], cwd?: string) => runMain(["next-version", ...args], { env: gitEnv(), cwd });

test("0.5.<commits on origin/main>, from -C or the current directory; local commits do not count", async () => {
  const f = makeRepo();
  for (let i = 0; i < 3; i++) {
    writeFileSync(join(f.repo, `f${i}`), `${i}\n`);
    sh(f.repo, "add", ".");
    sh(f.repo, "commit", "-q", "-m", `c${i}`);
  }
  sh(f.repo, "fetch", "-q", "origin");
  expect(await run(["-C", f.repo])).toEqual({ code: 0, stdout: "0.5.1\n", stderr: "" });
  sh(f.repo, "push", "-q", "origin", "main");
  sh(f.repo, "fetch", "-q", "origin");
  expect(await run([], f.repo)).toEqual({ code: 0, stdout: "0.5.4\n", stderr: "" });
});

test("origin/main unavailable: exit 2 with the fetch command", async () => {
  const f = makeRepo();
  sh(f.repo, "update-ref", "-d", "refs/remotes/origin/main");
  expect(await run(["-C", f.repo])).toEqual({ code: 2, stdout: "", stderr: "next-version: origin/main is unavailable; run: git fetch origin main --tags\n" });
});

test("shallow clone: exit 2 with the unshallow command", async () => {
  const f = makeRepo();
  writeFileSync(join(f.repo, "x"), "x\n");
  sh(f.repo, "add", ".");
  sh(f.repo, "commit", "-q", "-m", "second");
  sh(f.repo, "push", "-q", "origin", "main");
  const shallow = join(f.dir, "shallow");
  sh(f.dir, "clone", "-q", "--depth", "1", `file://${f.origin}`, shallow);
  expect(await run(["-C", shallow])).toEqual({ code: 2, stdout: "", stderr: "next-version: shallow clone detected; run: git fetch --unshallow origin main --tags\n" });
});

test("not a repository, extra arguments and --help", async () => {
  const d = tempDir();
  expect(await run(["-C", d])).toEqual({ code: 2, stdout: "", stderr: `next-version: not a git repository: ${d}\n` });
  const extra = await run(["extra"]);
  expect(extra.code).toBe(2);
  expect(extra.stderr).toContain("unexpected argument 'extra'");
  const help = await run(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("USAGE\n  mogui next-version");
});
