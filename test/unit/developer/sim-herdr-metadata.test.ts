/** The herdr simulator's `pane report-metadata` (herdr 0.9): silent success, tokens on PaneInfo, TTL, usage errors. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

function sim() {
  const dir = tempDir("herdr-sim-meta-");
  const env = { HERDR_SIM_STATE: join(dir, "state.json"), HOME: dir };
  return (...argv: string[]) => runMain(["sim", "herdr", ...argv], { env });
}

describe("herdr pane report-metadata (simulator)", () => {
  test("silent on success; the tokens show on pane get until the TTL passes; a later report of the source merges", async () => {
    const h = sim();
    await h("workspace", "create", "--cwd", "/repo");
    const r = await h("pane", "report-metadata", "w1:p1", "--source", "mogui", "--token", "spend=USD 0.42", "--token", "pushed=yes", "--ttl-ms", "5000");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ""]);
    const tokens = async () => JSON.parse((await h("pane", "get", "w1:p1")).stdout).result.pane.tokens;
    expect(await tokens()).toEqual({ pushed: "yes", spend: "USD 0.42" });
    await h("pane", "report-metadata", "w1:p1", "--source", "mogui", "--token", "verdict=pass", "--clear-token", "pushed", "--ttl-ms", "5000");
    expect(await tokens()).toEqual({ spend: "USD 0.42", verdict: "pass" });
    // Expiry is judged when the pane is printed: a 1 ms report is gone by the next read.
    await h("pane", "report-metadata", "w1:p1", "--source", "other", "--token", "x=1", "--ttl-ms", "1");
    await Bun.sleep(5);
    expect(await tokens()).toEqual({ spend: "USD 0.42", verdict: "pass" });
    await h("pane", "report-metadata", "w1:p1", "--source", "other", "--token", "y=2");
    expect(await tokens()).toEqual({ spend: "USD 0.42", verdict: "pass", y: "2" });
  });

  test("herdr's usage errors (exit 2) and pane_not_found (exit 1, JSON on stderr)", async () => {
    const h = sim();
    await h("workspace", "create", "--cwd", "/repo");
    const cases: [string[], string][] = [
      [["pane", "report-metadata", "w1:p1", "--token", "a=b"], "missing required --source"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui"], "missing metadata field to set or clear"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui", "--token", "ab"], "token must use NAME=VALUE"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui", "--token", "=b"], "token name must not be empty"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui", "--state-label", "busy=x"], "unknown state label: busy"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui", "--title", "x", "--clear-title"], "cannot set and clear the same metadata field"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui", "--token", "a=b", "--ttl-ms", "soon"], "invalid value for --ttl-ms: soon"],
      [["pane", "report-metadata", "w1:p1", "--source", "mogui", "--bogus"], "unknown option: --bogus"],
    ];
    for (const [argv, msg] of cases) {
      const r = await h(...argv);
      expect({ argv, code: r.code, err: r.stderr.trim() }).toEqual({ argv, code: 2, err: msg });
    }
    const gone = await h("pane", "report-metadata", "w1:p9", "--source", "mogui", "--token", "a=b");
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stderr).error).toEqual({ code: "pane_not_found", message: "pane w1:p9 not found" });
  });
});
