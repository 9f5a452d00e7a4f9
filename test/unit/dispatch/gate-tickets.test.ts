/** Tickets (§3.5, §30.6): validity rules, TTL, garbage collection; the reason-code vocabulary. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REASON_CODES, PROBE_FAILURES } from "../../../src/dispatch/gate/reasons.ts";
import { isExpired, listTickets, prepareTicket, ticketName, ticketPath } from "../../../src/dispatch/gate/tickets.ts";
import { tierWindowAgents } from "../../../src/dispatch/gate/window.ts";
import { priorAllows } from "../../../src/dispatch/gate/attempts.ts";
import { parseTierPolicy } from "../../../src/lib/config/tier-policy.ts";
import { LedgerError } from "../../../src/lib/ledger.ts";
import { tempDir } from "../../helpers/paths.ts";

const SHA = "0123456789ab".padEnd(64, "c");

describe("tickets", () => {
  test("only well-formed tickets under their own name count; expired ones stay until the grace ends", () => {
    const dir = tempDir();
    const put = (name: string, body: unknown) => writeFileSync(join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
    const good = { contract_sha: SHA, count: 1, issued_ts: 1000, runtime: "codex" };
    put(ticketName("codex", SHA), good);
    put("claude-0123456789ab.json", good); // wrong name for its runtime
    put("codex-aaaaaaaaaaaa.json", { ...good, contract_sha: "a".repeat(64), count: true });
    put("codex-bbbbbbbbbbbb.json", { ...good, contract_sha: "b".repeat(64), issued_ts: "1000" });
    put("codex-cccccccccccc.json", { ...good, contract_sha: "c".repeat(63) });
    put("Codex-dddddddddddd.json", { ...good, runtime: "Codex", contract_sha: "d".repeat(64) });
    put("codex-eeeeeeeeeeee.json", "{not json");
    put("codex-ffffffffffff.json", { ...good, contract_sha: "F".repeat(64), count: 3 });
    const list = listTickets(dir, 1000);
    expect(list.map((t) => [t.contract_sha, t.count])).toEqual([
      [SHA, 1],
      ["f".repeat(64), 3],
    ]);
    expect(isExpired(list[0]!, 1600)).toBe(false);
    expect(isExpired(list[0]!, 1601)).toBe(true);
    expect(listTickets(dir, 1000 + 600 + 86_400).length).toBe(2);
    expect(listTickets(dir, 1000 + 600 + 86_401)).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith("codex-0123"))).toEqual([]);
  });

  test("atomic write: nothing visible until commit; abort leaves nothing; confinement", () => {
    const dir = tempDir();
    const t = prepareTicket(dir, "codex", SHA, 0, 5);
    expect(listTickets(dir, 5)).toEqual([]);
    t.commit();
    expect(listTickets(dir, 5)[0]).toMatchObject({ count: 1, issued_ts: 5 });
    prepareTicket(dir, "codex", "e".repeat(64), 2, 6).abort();
    expect(readdirSync(dir)).toEqual([ticketName("codex", SHA)]);
    expect(ticketPath(dir, "../x", SHA)).toBeUndefined();
  });
});

describe("vocabulary and faults", () => {
  test("23 reason codes of the reference plus MODEL_RUNTIME_MISMATCH (D13) and SPEND_CAP_EXCEEDED (D37); five probe failures", () => {
    expect(REASON_CODES.length).toBe(25);
    expect(new Set(REASON_CODES).size).toBe(25);
    expect(REASON_CODES.indexOf("SPEND_CAP_EXCEEDED")).toBe(REASON_CODES.indexOf("TIER_FANOUT_CAP") + 1);
    expect(PROBE_FAILURES).toEqual(["orca_missing", "probe_timeout", "probe_unparseable", "task_omitted", "task_not_found"]);
  });

  test("a ledger path that is a directory is a LedgerError for the window and the attempt index, never a crash", () => {
    const dir = tempDir();
    const l = join(dir, "ledger");
    mkdirSync(l);
    const p = parseTierPolicy("p", JSON.stringify({ version: 2, tiers: { t: ["m"] }, fanout_caps: { t: 1 } }));
    expect(() => tierWindowAgents(l, p, "t", 100)).toThrow(LedgerError);
    expect(() => priorAllows(l, SHA)).toThrow(LedgerError);
  });
});
