/**
 * Issue 14's done-when: a generated corpus of planted secrets (every family, every encoding) and placeholder
 * look-alikes, scanned by the compiled binary in every report format. 0 missed, 0 printed unmasked (no output holds
 * 8 consecutive characters of a secret's body), at most 2% of look-alikes reported. The seed is printed;
 * REDACTION_CORPUS_SEED reproduces a run.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary, type BinResult } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";
import { plantAgentCorpus, score, writeAgentLookAlikes } from "../../helpers/redaction-agent-corpus.ts";
import { checksumToken, leaks, lookAlikes, plantCorpus, writeLookAlikes } from "../../helpers/redaction-corpus.ts";

const SEED = Number(process.env.REDACTION_CORPUS_SEED ?? Math.floor(Math.random() * 2 ** 31));

interface JsonReport {
  verdict: string;
  findings_total: number;
  findings: Array<{ rule: string; file: string; line: number; column: number; match: string; fingerprint: string; line_fingerprint: string; decoded?: string }>;
  blind_spots: { binary_files: number; binary_files_listed: string[] };
}

async function scan(dir: string, args: string[]): Promise<BinResult> {
  const max = args.includes("--max-findings") ? [] : ["--max-findings", "100000"];
  return runBinary(["redaction-scan", "-C", dir, "--paths", ".", ...max, ...args], { env: e2eEnv({ HOME: tempDir() }) });
}

describe("planted-secret corpus", () => {
  test(`every planted secret found, none printed, look-alikes quiet (seed ${SEED})`, async () => {
    const dir = join(tempDir("mogui-corpus-"), "c");
    const out = tempDir("mogui-corpus-out-");
    const plants = plantCorpus(dir, SEED);
    const looks = lookAlikes();
    writeLookAlikes(dir, looks);
    const jsonPath = join(out, "r.json");
    const sarifPath = join(out, "r.sarif");
    const runs = await Promise.all([
      scan(dir, []),
      scan(dir, ["--report-format", "json", "--report-path", jsonPath]),
      scan(dir, ["--report-format", "sarif", "--report-path", sarifPath]),
      scan(dir, ["--report-format", "json"]),
      scan(dir, ["--report-format", "sarif"]),
    ]);
    for (const r of runs) expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(jsonPath, "utf8")) as JsonReport;
    const found = new Set(report.findings.map((f) => f.file));
    const missed = plants.filter((p) => !found.has(p.file));
    const outputs = [...runs.flatMap((r) => [r.stdout, r.stderr]), readFileSync(jsonPath, "utf8"), readFileSync(sarifPath, "utf8")].join("\n");
    const unmasked = plants.filter((p) => leaks(p.body, outputs).length > 0);
    const reported = looks.filter((l) => found.has(l.file));
    const families = new Set(plants.map((p) => p.family));
    const encodings = new Set(plants.map((p) => p.encoding));
    console.log(
      `redaction corpus (seed ${SEED}): ${plants.length} planted secrets (${families.size} families, encodings: ${[...encodings].join(", ")}), ` +
        `missed ${missed.length}, printed unmasked ${unmasked.length}; ${looks.length} look-alikes, reported ${reported.length} (${((100 * reported.length) / looks.length).toFixed(1)}%)`,
    );
    expect(plants.length).toBeGreaterThanOrEqual(150);
    expect(looks.length).toBeGreaterThanOrEqual(100);
    expect(missed.map((p) => p.file)).toEqual([]);
    expect(unmasked.map((p) => `${p.file}: ${leaks(p.body, outputs).length} window(s)`)).toEqual([]);
    expect(reported.length / looks.length).toBeLessThanOrEqual(0.02);
    // A base64 finding says it was decoded.
    expect(report.findings.filter((f) => plants.some((p) => p.encoding === "base64" && p.file === f.file)).every((f) => f.decoded === "base64")).toBe(true);
  }, 120_000);
});

describe("issue 25: the agent-era corpus", () => {
  test(`>= 350 secrets in >= 70 families and >= 10 encodings: recall >= 0.95, precision >= 0.97, no output holds a secret (seed ${SEED})`, async () => {
    const dir = join(tempDir("mogui-agent-"), "c");
    const out = tempDir("mogui-agent-out-");
    const plants = plantAgentCorpus(dir, SEED);
    const looks = writeAgentLookAlikes(dir, SEED);
    const jsonPath = join(out, "r.json");
    const sarifPath = join(out, "r.sarif");
    const runs = await Promise.all([
      scan(dir, []),
      scan(dir, ["-v"]),
      scan(dir, ["--report-format", "json", "--report-path", jsonPath]),
      scan(dir, ["--report-format", "sarif", "--report-path", sarifPath]),
      scan(dir, ["--report-format", "json"]),
      scan(dir, ["--report-format", "sarif"]),
    ]);
    for (const r of runs) expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(jsonPath, "utf8")) as JsonReport;
    const s = score(plants, looks, new Set(report.findings.map((f) => f.file)));
    // Every output: stdout and stderr of every run, both report files. No planted secret, nor any 8 characters of one.
    const outputs = [...runs.flatMap((r) => [r.stdout, r.stderr]), readFileSync(jsonPath, "utf8"), readFileSync(sarifPath, "utf8")].join("\n");
    const leaked = plants.filter((p) => leaks(p.body, outputs).length > 0);
    const families = new Set(plants.map((p) => p.family));
    const encodings = new Set(plants.map((p) => p.encoding));
    console.log(`agent corpus (seed ${SEED}): ${plants.length} secrets, ${families.size} families, ${encodings.size} encodings, ${looks.length} look-alikes; ` + `recall ${s.recall.toFixed(3)}, precision ${s.precision.toFixed(3)}, leaks ${leaked.length}`);
    expect(plants.length).toBeGreaterThanOrEqual(350);
    expect(families.size).toBeGreaterThanOrEqual(70);
    expect(encodings.size).toBeGreaterThanOrEqual(10);
    expect(looks.length).toBeGreaterThanOrEqual(300);
    expect(leaked.map((p) => `${p.file}: ${leaks(p.body, outputs).join(",")}`)).toEqual([]);
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.precision).toBeGreaterThanOrEqual(0.97);
  }, 120_000);

  test("a second, unmatched secret on a finding's line is masked in every output", async () => {
    const dir = join(tempDir("mogui-line-"), "c");
    const pass = "Qz8" + "vN2kR7pLw4";
    const hf = "h" + "f_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh";
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    const gh = checksumToken("gh" + "p_", "Zx81Kq0Lm2Np3Rt4Vw5Yb6Cd7Ef8Gh");
    writeFileSync(join(dir, "a.sh"), `curl -u admin:${pass} -H "X: ${hf}" https://x.acme.dev # ${gh} aws=${"IQoJb3Jp" + "Z2luX2Vj" + "Ab12Cd34Ef56"}\n`);
    const runs = await Promise.all([scan(dir, []), scan(dir, ["--report-format", "json"]), scan(dir, ["--report-format", "sarif"])]);
    const all = runs.map((r) => r.stdout + r.stderr).join("\n");
    expect(runs[0]!.code).toBe(1);
    for (const secret of [pass, hf.slice(3), gh.slice(4), "Ab12Cd34Ef56"]) expect(leaks(secret, all)).toEqual([]);
  }, 60_000);
});

describe("reports", () => {
  const corpus = () => {
    const dir = join(tempDir("mogui-rep-"), "c");
    plantCorpus(dir, 11);
    return dir;
  };

  test("JSON: one document sorted by file, line, rule; fields; --baseline suppresses it all", async () => {
    const dir = corpus();
    const path = join(tempDir(), "base.json");
    const r = await scan(dir, ["--report-format", "json", "--report-path", path]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(readFileSync(path, "utf8")) as JsonReport;
    expect(doc.verdict).toBe("findings");
    expect(doc.findings_total).toBe(doc.findings.length);
    const keys = doc.findings.map((f) => [f.file, f.line, f.rule] as const);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0)));
    expect(keys).toEqual(sorted);
    for (const f of doc.findings) {
      expect(f.fingerprint).toMatch(new RegExp(`^${f.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${f.rule}:[0-9a-f]{16}:[1-9][0-9]*$`));
      expect(f.line_fingerprint).toBe(`${f.file}:${f.rule}:${f.line}`);
      expect(f.column).toBeGreaterThanOrEqual(1);
      expect(typeof f.match).toBe("string");
    }
    const again = await scan(dir, ["--baseline", path]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`redaction-scan: ${doc.findings.length} finding(s) suppressed by the baseline or .gitleaksignore\n`);
    const bad = await scan(dir, ["--baseline", join(dir, "nope.json")]);
    expect(bad.code).toBe(2);
  }, 60_000);

  test("SARIF 2.1.0: version, $schema, driver rules, results with physical locations", async () => {
    const dir = corpus();
    const r = await scan(dir, ["--report-format", "sarif"]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe("2.1.0");
    expect(doc.$schema).toMatch(/sarif-2\.1\.0/);
    expect(doc.runs).toHaveLength(1);
    const run = doc.runs[0];
    expect(run.tool.driver.name).toBe("mogui redaction-scan");
    const ids = run.tool.driver.rules.map((x: { id: string }) => x.id);
    expect(ids).toContain("private_key");
    for (const rule of run.tool.driver.rules) expect(rule.shortDescription.text.length).toBeGreaterThan(0);
    expect(run.results.length).toBeGreaterThan(100);
    for (const res of run.results) {
      expect(ids[res.ruleIndex]).toBe(res.ruleId);
      expect(res.message.text.length).toBeGreaterThan(0);
      const loc = res.locations[0].physicalLocation;
      expect(loc.artifactLocation.uri).toMatch(/^secrets\//);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBeGreaterThanOrEqual(1);
      expect(Object.keys(res.partialFingerprints)).toEqual(["moguiFingerprint/v1", "moguiFingerprint/v2"]);
    }
    expect(r.stderr).toMatch(/redaction-scan: FAIL — \d+ finding\(s\) \(fail-closed\)\n/);
    expect(r.stderr).not.toContain("  secrets/");
  }, 60_000);

  test("--max-findings lists the first n and counts the rest; binary files are blind spots; bad values are usage errors", async () => {
    const dir = corpus();
    await Bun.write(join(dir, "img.bin"), new Uint8Array([0, 1, 2, 3, 65, 66]));
    const r = await scan(dir, ["--max-findings", "3"]);
    expect(r.code).toBe(1);
    const listed = r.stderr.split("\n").filter((l) => l.startsWith("  "));
    expect(listed).toHaveLength(3);
    expect(r.stderr).toMatch(/redaction-scan: \.\.\. and \d+ more finding\(s\) not listed \(--max-findings 3\)\n/);
    expect(r.stderr).toContain("redaction-scan: note — 1 binary file(s) not scanned (blind spots): img.bin\n");
    const j = await scan(dir, ["--max-findings", "2", "--report-format", "json"]);
    const doc = JSON.parse(j.stdout);
    expect([doc.findings.length, doc.findings_total > 2, doc.blind_spots]).toEqual([2, true, { binary_files: 1, binary_files_listed: ["img.bin"] }]);
    for (const bad of [
      ["--max-findings", "0"],
      ["--max-decode-depth", "x"],
    ])
      expect((await scan(dir, bad)).code).toBe(2);
  }, 60_000);
});
