/** scripts/git-hooks/pre-push (§29): one range scan per pushed ref; a finding blocks the push; deletions skipped. */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv } from "../../helpers/binary.ts";
import { makeRepo, sh } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const AWS = `AKIA${"QZXW".repeat(4)}`;

function push(repo: string, ...args: string[]): { code: number; stderr: string } {
  const env = e2eEnv({ HOME: tempDir(), GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@mogui.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@mogui.invalid" });
  const p = Bun.spawnSync(["git", "push", "-q", ...args], { cwd: repo, env, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, stderr: p.stderr.toString() };
}

function commit(repo: string, file: string, text: string, msg = `add ${file}`): void {
  writeFileSync(join(repo, file), text);
  sh(repo, "add", ".");
  sh(repo, "commit", "-q", "-m", msg);
}

test("pre-push scans each pushed range and blocks a finding, never printing the secret", () => {
  const f = makeRepo();
  sh(f.repo, "config", "core.hooksPath", join(ROOT, "scripts", "git-hooks"));
  commit(f.repo, "ok.txt", "fine\n");
  const clean = push(f.repo, "origin", "main");
  expect(clean.code).toBe(0);
  expect(clean.stderr).toMatch(/pre-push: redaction-scan --range [0-9a-f]{40}\.\.[0-9a-f]{40} \(refs\/heads\/main -> refs\/heads\/main\)/);
  commit(f.repo, "leak.txt", `key ${AWS}\n`);
  const blocked = push(f.repo, "origin", "main");
  expect(blocked.code).not.toBe(0);
  expect(blocked.stderr).toContain("redaction-scan: FAIL — 1 finding(s) (fail-closed)");
  expect(blocked.stderr).toContain("  leak.txt:1  [aws_access_key]");
  expect(blocked.stderr).not.toContain(AWS);
  expect(sh(f.repo, "ls-remote", "origin", "refs/heads/main").split("\t")[0]).not.toBe(sh(f.repo, "rev-parse", "HEAD"));
});

test("a new branch is scanned from its merge-base with origin/main; a secret in a commit message blocks too", () => {
  const f = makeRepo();
  sh(f.repo, "config", "core.hooksPath", join(ROOT, "scripts", "git-hooks"));
  sh(f.repo, "checkout", "-q", "-b", "feature");
  commit(f.repo, "a.txt", "fine\n", `token ${AWS}`);
  const r = push(f.repo, "origin", "feature");
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/ {2}commit:[0-9a-f]{12}:1 {2}\[aws_access_key\]/);
});

test("deleting a remote branch scans nothing in range and falls back to the tracked scan", () => {
  const f = makeRepo();
  sh(f.repo, "push", "-q", "origin", "main:gone");
  sh(f.repo, "config", "core.hooksPath", join(ROOT, "scripts", "git-hooks"));
  const r = push(f.repo, "origin", ":gone");
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("pre-push: no range to scan; scanning the tracked files");
});
