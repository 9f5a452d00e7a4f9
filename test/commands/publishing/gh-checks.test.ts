// The gh-based checks in process (pr-body-check, conversation-redaction-scan, pr-steward-status): every documented exit code, with a stub runner for gh.
import { beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner, type StubReply } from "../../helpers/stub-runner.ts";
import { scratchRunner } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

// Built at run time so the repo's own redaction gate does not read these planted paths as personal home paths.
const MAC_HOME = ["", "Users"].join("/");

let dir: string;
beforeEach(() => {
  dir = tempDir("hooks-ops-");
});
const { env, run } = scratchRunner(() => dir);

describe("gh-based checks", () => {
  const auth: [string[], StubReply] = [["gh", "auth", "status"], { stdout: "ok" }];
  const body = `## Problem\nSlow.\n## Why this approach\n<!-- explain -->\n## What this changes\nDescribe what this PR changes.\n\nSee ${MAC_HOME}/alice/x\n`;
  const template = "## Problem\n<!-- what hurts -->\n## Why this approach\n## What this changes\nDescribe what this PR changes.\n## Expected effect\n";

  test("pr-body-check: each state, home paths by line only, exit 1; all filled exit 0", async () => {
    writeFileSync(join(dir, "body.md"), body);
    writeFileSync(join(dir, "t.md"), template);
    const r = await run(["pr-body-check", "--body-file", "body.md", "--template-file", "t.md"]);
    expect(r).toEqual({
      code: 1,
      stdout: "Problem: filled\nWhy this approach: present but empty\nWhat this changes: present but unmodified template guidance\nExpected effect: missing heading\nLine 8: [home_path] absolute path detected\n",
      stderr: "",
    });
    expect(r.stdout).not.toContain("alice");
    const runner = stubRunner([auth, [["gh", "pr", "view", "12", "--json", "body", "--repo", "a/b"], { stdout: { body: "# Problem\nx\n# Why this approach\ny\n# What this changes\nz\n# Expected effect\nw\n" } }]]);
    expect(await run(["pr-body-check", "12", "--repo", "a/b"], { runner })).toMatchObject({ code: 0 });
    expect((await run(["pr-body-check"])).code).toBe(2);
    expect((await run(["pr-body-check", "x12"])).code).toBe(2);
  });

  test("gh missing or not authenticated: exit 2 with a clear message", async () => {
    const missing = await run(["pr-body-check", "3"], { runner: stubRunner([[["gh", "auth", "status"], { missing: true }]]) });
    expect(missing).toEqual({ code: 2, stdout: "", stderr: "pr-body-check: gh (the GitHub CLI) is not installed or not on PATH\n" });
    const unauth = await run(["conversation-redaction-scan", "--repo", "a/b"], { runner: stubRunner([[["gh", "auth", "status"], { code: 1, stderr: "not logged in" }]]) });
    expect(unauth).toEqual({ code: 2, stdout: "", stderr: "conversation-redaction-scan: gh is not authenticated: run 'gh auth login' (or set GH_TOKEN)\n" });
    const steward = await run(["pr-steward-status", "4", "--repo", "a/b"], { runner: stubRunner([[["gh", "auth", "status"], { missing: true }]]) });
    expect(steward.code).toBe(2);
  });

  test("conversation-redaction-scan: surface|number|author|locator|pattern, never the value", async () => {
    const common = ["--state", "all", "--limit", "5", "--repo", "acme/w"];
    const prs = [
      { number: 3, author: { login: "bob" }, body: "fine", comments: [{ author: { login: "eve" }, body: "see /home/mallory/x", url: "https://github.com/acme/w/pull/3#issuecomment-77" }], reviews: [{ author: { login: "rev" }, body: `${MAC_HOME}/zed/y` }] },
    ];
    const issues = [{ number: 9, author: { login: "ann" }, body: `${MAC_HOME}/kim and /home/lee`, comments: [] }];
    const runner = stubRunner([auth, [["gh", "pr", "list", ...common, "--json", "number,author,body,comments,reviews"], { stdout: prs }], [["gh", "issue", "list", ...common, "--json", "number,author,body,comments"], { stdout: issues }]]);
    const r = await run(["conversation-redaction-scan", "--limit", "5"], { env: env({ MOGUI_PRODUCT_GITHUB: "acme/w" }), runner });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`pr_comment|3|eve|comment:issuecomment-77|/home/<x>\npr_review|3|rev|review#1|${MAC_HOME}/<x>\nissue_body|9|ann|body|${MAC_HOME}/<x>\nissue_body|9|ann|body|/home/<x>\n`);
    for (const secret of ["mallory", "zed", "kim", "lee"]) expect(r.stdout + r.stderr).not.toContain(secret);
    expect((await run(["conversation-redaction-scan"], { env: env({ MOGUI_PRODUCT_REPO: "/src/x" }) })).code).toBe(2);
    expect((await run(["conversation-redaction-scan", "--repo", "nope"])).code).toBe(2);
    expect((await run(["conversation-redaction-scan", "--repo", "a/b", "--limit", "0"])).code).toBe(2);
  });

  test("pr-steward-status: four conditions, NOT READY exit 1 (gates always unverified)", async () => {
    const view = { number: 4, headRefOid: "abc", baseRefName: "main", mergeable: "MERGEABLE", statusCheckRollup: [{ status: "COMPLETED", conclusion: "SUCCESS" }, { state: "PENDING" }] };
    const threads = {
      data: {
        repository: {
          pullRequest: {
            reviewThreads: {
              nodes: [
                { isResolved: true, comments: { totalCount: 1 } },
                { isResolved: false, comments: { totalCount: 3 } },
              ],
            },
          },
        },
      },
    };
    const r2 = await run(["pr-steward-status", "4"], {
      runner: stubRunner([
        auth,
        [["gh", "repo", "view", "--json", "nameWithOwner"], { stdout: { nameWithOwner: "acme/w" } }],
        [["gh", "pr", "view", "4", "--repo", "acme/w", "--json", "number,headRefOid,baseRefName,mergeable,statusCheckRollup"], { stdout: view }],
        [
          [
            "gh",
            "api",
            "graphql",
            "-f",
            `query=${"query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){nodes{isResolved comments{totalCount}}}}}}"}`,
            "-F",
            "owner=acme",
            "-F",
            "name=w",
            "-F",
            "number=4",
          ],
          { stdout: threads },
        ],
        [["gh", "api", "repos/acme/w/compare/main...abc"], { stdout: { behind_by: 2 } }],
      ]),
    });
    expect(r2).toEqual({
      code: 1,
      stdout: [
        "pr: acme/w#4",
        "checks concluded: FAIL (2 check(s), 1 pending, 0 failing)",
        "review threads resolved and replied: FAIL (2 thread(s), 1 unresolved, 1 without a reply)",
        "mergeable and head contains base: FAIL (mergeable=MERGEABLE, behind main by 2)",
        "gates re-run: UNVERIFIED (not visible from the API; confirm the gates by hand)",
        "overall: NOT READY (checks concluded; review threads resolved and replied; mergeable and head contains base; gates re-run)",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect((await run(["pr-steward-status", "abc"])).code).toBe(2);
    expect((await run(["pr-steward-status"])).code).toBe(2);
  });
});
