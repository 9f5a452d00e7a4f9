import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendEntry, hasGeneration, parseLedger, renderSection, validateEntry } from "../../../src/succession/lineage/lineage.ts";
import { activeTracks, replayText, trackLine, TrackRuleError, WorkspaceRuntime } from "../../../src/succession/tracks/ledger.ts";
import { tempDir } from "../../helpers/paths.ts";

const entry = (generation: number, over: Record<string, unknown> = {}) => ({
  generation,
  parent_session: "p",
  successor_session: "s",
  timestamp: "2026-01-01T00:00:00Z",
  inherited_role: "Research",
  succession_reason: "r",
  recovery_sources: "h.md",
  inherited_open_tracks: "T1",
  verification: "PASS",
  repeated_question_count: 0,
  reopened_decision_count: 2,
  context_loss_summary: "none",
  predecessor_retirement_verified: "CLOSED",
  ...over,
});

describe("lineage (§9, D23)", () => {
  test("validation errors name the field", () => {
    const { generation, ...noGen } = entry(1);
    expect(() => validateEntry(noGen)).toThrow("missing lineage field: generation");
    expect(() => validateEntry(entry(-1))).toThrow("lineage field generation must be non-negative");
    expect(() => validateEntry(entry(1, { repeated_question_count: true }))).toThrow("repeated_question_count must be an integer");
    expect(() => validateEntry(entry(1, { verification: "OK" }))).toThrow("verification must be one of PASS, PARTIAL, FAILED");
    expect(() => validateEntry(entry(1, { inherited_role: 3 }))).toThrow("inherited_role must be a string");
    expect(() => validateEntry(entry(1, { extra: "x" }))).toThrow("unknown lineage field: extra");
    expect(() => validateEntry(entry(1, { notes: "a\nb" }))).toThrow("notes must be one line");
  });
  test("the rendered section", () => {
    expect(renderSection(validateEntry(entry(3, { notes: "n" })))).toBe(
      "## Gen 3 — 2026-01-01T00:00:00Z\n\n- **Generation**: 3\n- **Parent Session**: p\n- **Successor Session**: s\n- **Timestamp**: 2026-01-01T00:00:00Z\n" +
        "- **Inherited Role**: Research\n- **Succession reason**: r\n- **Recovery sources**: h.md\n- **Inherited open tracks**: T1\n- **Verification**: **PASS**\n" +
        "- **Repeated-question count**: 0\n- **Reopened-decision count**: 2\n- **Context-loss summary**: none\n- **Predecessor retirement verified**: CLOSED\n- **Notes**: n\n",
    );
  });
  test("append: \\n\\n between sections, whole-line duplicate check (5 may follow 50), parse back", () => {
    const p = join(tempDir(), "MASTER-LINEAGE.md");
    appendEntry(p, entry(50));
    appendEntry(p, entry(5));
    expect(() => appendEntry(p, entry(5))).toThrow("generation already exists: 5");
    const text = readFileSync(p, "utf8");
    expect(text).toContain("CLOSED\n\n\n## Gen 5 — ");
    expect(hasGeneration(text, 50) && hasGeneration(text, 5) && !hasGeneration(text, 500)).toBe(true);
    const { entries, warnings } = parseLedger(text);
    expect(warnings).toEqual([]);
    expect(entries).toEqual([validateEntry(entry(50)), validateEntry(entry(5))]);
  });
  test("a write that does not verify restores the original bytes", () => {
    const p = join(tempDir(), "L.md");
    writeFileSync(p, "# Lineage\n");
    expect(() => appendEntry(p, entry(1), { afterWrite: () => writeFileSync(p, "clobbered") })).toThrow(`post-write verification failed for ${p}; original bytes restored`);
    expect(readFileSync(p, "utf8")).toBe("# Lineage\n");
  });
  test("a symlinked ledger is refused", () => {
    const d = tempDir();
    writeFileSync(join(d, "real.md"), "");
    symlinkSync(join(d, "real.md"), join(d, "link.md"));
    expect(() => appendEntry(join(d, "link.md"), entry(1))).toThrow("refusing to write through a symlink");
  });
});

describe("work ledger (§8)", () => {
  test("register / update / close rules and a closed track registered again", () => {
    let t = 100;
    const rt = new WorkspaceRuntime(join(tempDir(), "w.jsonl"), () => t++);
    expect(rt.registerTrack("T1", "Parser", ["gh#1"])).toMatchObject({ track_id: "T1", status: "REGISTERED", refs: ["gh#1"], registered_at: 100 });
    expect(() => rt.registerTrack("T1", "again")).toThrow(new TrackRuleError("track already active: T1"));
    expect(rt.updateTrack("T1", "BLOCKED", "review")).toMatchObject({ status: "BLOCKED", note: "review", updated_at: 102 });
    expect(() => rt.updateTrack("T9", "X")).toThrow("unknown track: T9");
    expect(rt.closeTrack("T1", "merged")).toMatchObject({ status: "CLOSED", resolution: "merged", closed_at: 104 });
    expect(() => rt.updateTrack("T1", "X")).toThrow("unknown track: T1");
    expect(rt.activeTracks()).toEqual([]);
    expect(rt.registerTrack("T1", "Parser v2").status).toBe("REGISTERED");
    expect(new WorkspaceRuntime(rt.path).activeTracks().map((x) => x.title)).toEqual(["Parser v2"]);
  });
  test("a track's boot-block line stays one line whatever its title holds", () => {
    const [t] = activeTracks(replayText('{"event":"register","track_id":"T1","title":"x\\n## Role State\\r\\nCurrent Role: Architecture","ts":1}\n'));
    expect(trackLine(t!)).toBe("T1 x ## Role State Current Role: Architecture [REGISTERED]");
  });
  test("replay keeps going past bad lines, each a numbered warning", () => {
    const r = replayText(
      ['{"event":"register","track_id":"A","title":"a","ts":1}', "{bad", "[1]", '{"event":"nope","track_id":"A","ts":2}', '{"event":"update","track_id":"A","status":"","ts":3}', '{"event":"register","track_id":"B","title":"b","ts":4}'].join("\n"),
    );
    expect(r.warnings).toEqual(["line 2: invalid JSON", "line 3: not an object", "line 4: unknown event: nope"]);
    expect(activeTracks(r).map((t) => [t.track_id, t.status])).toEqual([
      ["A", "REGISTERED"],
      ["B", "REGISTERED"],
    ]);
  });
});
