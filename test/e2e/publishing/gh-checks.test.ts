// The gh-based checks through the compiled binary, with the fake gh.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT } from "../../helpers/paths.ts";

describe("gh-based checks with the fake gh", () => {
  test("a gh that is not logged in, and no gh at all: exit 2 with a clear message", async () => {
    const unauth = await runBinary(["pr-steward-status", "5", "--repo", "a/b"], { env: e2eEnv() });
    expect(unauth).toEqual({ code: 2, stdout: "", stderr: "pr-steward-status: gh is not authenticated: run 'gh auth login' (or set GH_TOKEN)\n" });
    const env = e2eEnv();
    env.PATH = join(ROOT, "fixtures", "none");
    const none = await runBinary(["conversation-redaction-scan", "--repo", "a/b"], { env });
    expect(none).toEqual({ code: 2, stdout: "", stderr: "conversation-redaction-scan: gh (the GitHub CLI) is not installed or not on PATH\n" });
  });
});
