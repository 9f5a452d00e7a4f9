/** Contract lint (§3.7, D14). */
import { describe, expect, test } from "bun:test";
import { lintContract, outsideKnownRoots, worktreeAsRepoRoot } from "../../../src/dispatch/gate/lint.ts";

describe("contract lint", () => {
  test("MCP_TRUST_UNHANDLED: whole-word mcp, mcp__, code-review-graph; silenced by trust words", () => {
    expect(lintContract("use MCP here", undefined)).toEqual(["MCP_TRUST_UNHANDLED"]);
    expect(lintContract("call mcp__server_tool", undefined)).toEqual(["MCP_TRUST_UNHANDLED"]);
    expect(lintContract("run code-review-graph", undefined)).toEqual(["MCP_TRUST_UNHANDLED"]);
    expect(lintContract("mcpserver and xmcp", undefined)).toEqual([]);
    expect(lintContract("한mcp한", undefined)).toEqual([]);
    for (const t of ["Trust", "신뢰", "다이얼로그"]) expect(lintContract(`mcp ${t}`, undefined)).toEqual([]);
  });

  test("PATH_OUTSIDE_KNOWN_ROOTS covers /Users and /home (D14), strips trailing punctuation", () => {
    const roots = ["/Users/me/work", "/home/me/"];
    expect(outsideKnownRoots("see /Users/me/work/a.ts.", roots)).toBe(false);
    expect(outsideKnownRoots("(/home/me/x/y)", roots)).toBe(false);
    expect(outsideKnownRoots("`/Users/me/workshop/a`", roots)).toBe(true);
    expect(outsideKnownRoots("/home/other/z", roots)).toBe(true);
    expect(outsideKnownRoots("/Users/me/work", roots)).toBe(false);
    expect(lintContract("/home/other", undefined)).toEqual([]);
  });

  test("WORKTREE_AS_REPO_ROOT needs both on one line", () => {
    expect(worktreeAsRepoRoot("repo_root = /a/.orca/worktrees/b")).toBe(true);
    expect(worktreeAsRepoRoot("/a/.orca/worktrees/b GRAPH")).toBe(true);
    expect(worktreeAsRepoRoot("/a/.orca/worktrees/b\nrepo root")).toBe(false);
  });
});
