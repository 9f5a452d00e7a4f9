/** D38: recordAbort cancels the newest pending check ALLOW of a contract + runtime; register never binds to it. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordAbort } from "../../../src/dispatch/gate/abort.ts";
import type { GatePaths } from "../../../src/dispatch/gate/paths.ts";
import { pendingRows } from "../../../src/dispatch/gate/selection.ts";
import { ticketPath } from "../../../src/dispatch/gate/tickets.ts";
import { tempDir } from "../../helpers/paths.ts";

const SHA = "ab".repeat(32);
const check = (ts: number, attempt: number, runtime = "codex") => `${JSON.stringify({ ts, decision: "ALLOW", reason: "OK", contract_sha: SHA, runtime, n_agents: 1, attempt })}\n`;

function paths(): GatePaths {
  const dir = tempDir("gate-abort-");
  mkdirSync(join(dir, "tickets"));
  return { ledger: join(dir, "l.jsonl"), ticketDir: join(dir, "tickets"), knownRoots: join(dir, "k.json"), spendLedger: join(dir, "spend.jsonl"), lockTimeoutMs: 2000 };
}
const rows = (p: GatePaths) =>
  readFileSync(p.ledger, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const pending = (p: GatePaths) => pendingRows(p.ledger, (sha, rt) => sha === SHA && rt === "codex", false).then((r) => r.map((x) => x.row.attempt));

describe("recordAbort", () => {
  test("cancels the newest pending check row (its attempt), removes the ticket, and register skips it", async () => {
    const p = paths();
    writeFileSync(p.ledger, check(1, 1) + check(2, 2) + check(3, 1, "claude"));
    const ticket = ticketPath(p.ticketDir, "codex", SHA)!;
    writeFileSync(ticket, "{}");
    expect(await pending(p)).toEqual([2, 1]);
    expect(await recordAbort(p, { contractSha: SHA, runtime: "Codex", step: "dispatch", reason: "boom", taskId: "task_1", terminal: null }, 10)).toBe(2);
    expect(rows(p).at(-1)).toEqual({ ts: 10, event: "dispatch_aborted", contract_sha: SHA, runtime: "codex", attempt: 2, step: "dispatch", reason: "boom", task_id: "task_1", terminal: null });
    expect(existsSync(ticket)).toBe(false);
    expect(await pending(p)).toEqual([1]);
    expect(await recordAbort(p, { contractSha: SHA, runtime: "codex", step: "terminal", reason: "x" }, 11)).toBe(1);
    expect(await pending(p)).toEqual([]);
    // Nothing left to cancel: no row is written.
    expect(await recordAbort(p, { contractSha: SHA, runtime: "codex", step: "terminal", reason: "x" }, 12)).toBeNull();
    expect(rows(p)).toHaveLength(5);
  });
});
