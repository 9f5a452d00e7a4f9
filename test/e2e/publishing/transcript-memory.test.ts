/**
 * model-drift-audit streams: a 200 MB transcript is audited in (near) constant memory. The peak RSS of the compiled
 * binary on 200 MB must stay within a small margin of its peak on a 2 MB file of the same shape.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { binaryPath } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

const MB = 1 << 20;

function event(i: number, model: string): string {
  const pad = "x".repeat(1800);
  const user = { type: "user", sessionId: "s", uuid: `u${i}`, timestamp: "2026-11-30T08:00:00Z", message: { role: "user", content: pad } };
  const asst = { type: "assistant", sessionId: "s", uuid: `a${i}`, timestamp: "2026-11-30T08:00:01Z", message: { role: "assistant", model, content: [{ type: "text", text: pad }] } };
  return `${JSON.stringify(user)}\n${JSON.stringify(asst)}\n`;
}

/** Writes `mb` MiB: a 1 MiB block repeated (first half one model, second half another: one transition). */
function generate(path: string, mb: number): void {
  const block = (model: string) => {
    let s = "";
    let i = 0;
    while (s.length < MB) s += event(i++, model);
    return Buffer.from(s);
  };
  const a = block("claude-opus-4-1");
  const b = block("claude-sonnet-4-5");
  const fd = openSync(path, "w");
  try {
    for (let k = 0; k < mb; k++) writeSync(fd, k < mb / 2 ? a : b);
  } finally {
    closeSync(fd);
  }
}

function peakRssKb(args: string[]): { kb: number; code: number; stdout: string } {
  const p = Bun.spawnSync(["/usr/bin/time", "-f", "%M", binaryPath(), ...args], { stdout: "pipe", stderr: "pipe", env: { ...process.env, TZ: "UTC" } });
  const lines = p.stderr.toString().trim().split("\n");
  return { kb: Number(lines[lines.length - 1]), code: p.exitCode ?? -1, stdout: p.stdout.toString() };
}

let dir: string;
beforeAll(() => {
  dir = tempDir();
  generate(join(dir, "small.jsonl"), 2);
  generate(join(dir, "big.jsonl"), 200);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a 200 MB transcript is audited in constant memory", () => {
  const small = peakRssKb(["model-drift-audit", "--transcript", join(dir, "small.jsonl"), "--json"]);
  const big = peakRssKb(["model-drift-audit", "--transcript", join(dir, "big.jsonl"), "--json"]);
  expect(small.code).toBe(1);
  expect(big.code).toBe(1);
  const j = JSON.parse(big.stdout);
  expect(j.transitions.length).toBe(1);
  expect(j.assistant_turns).toBeGreaterThan(50_000);
  expect(Number.isFinite(small.kb) && Number.isFinite(big.kb)).toBe(true);
  // 200x the input may cost at most 64 MiB more peak memory than 2 MiB did (GC slack, not the file).
  expect(big.kb - small.kb).toBeLessThan(64 * 1024);
}, 60_000);
