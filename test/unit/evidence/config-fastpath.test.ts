/**
 * parseInstanceConfig answers valid files without running valibot (hooks load it on every tool call). This pins
 * that the fast path and the valibot schema agree: the same fields for every config the schema accepts, and the
 * schema's own error for every config it rejects.
 */
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { InstanceConfigError, parseInstanceConfig } from "../../../src/lib/config/instance.ts";
import { InstanceRuntimeSchema } from "../../../src/lib/config/instance-schema.ts";
import { dropUnderscoreKeys } from "../../../src/lib/config/issues.ts";

const VALUES: unknown[] = [undefined, null, "", " ", "claude", "/abs/repo", "rel", 0, 1, true, [], {}, ["x"], { a: 1 }];
const GLOB_VALUES: unknown[] = ["", " ", "\t", "~/x/*.jsonl", 3, null, [], { g: 1 }];
const GLOB_KEYS = ["claude", "_doc", "", " ", "codex"];

/** A small deterministic generator (no Math.random: the test must fail the same way twice). */
function* configs(): Generator<Record<string, unknown>> {
  let seed = 7;
  // mulberry32: every bit well mixed, so small moduli still cover every combination.
  const next = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  for (let i = 0; i < 3000; i++) {
    const c: Record<string, unknown> = {};
    const m = VALUES[next(VALUES.length)];
    if (m !== undefined) c.master_host_runtime = m;
    const p = VALUES[next(VALUES.length)];
    if (p !== undefined) c.product_repo = p;
    const shape = next(5);
    if (shape === 1) c.transcript_globs = VALUES[next(VALUES.length)];
    if (shape >= 2) {
      const g: Record<string, unknown> = {};
      for (let k = next(4); k > 0; k--) g[GLOB_KEYS[next(GLOB_KEYS.length)]!] = GLOB_VALUES[next(GLOB_VALUES.length)];
      c.transcript_globs = g;
    }
    if (next(4) === 0) c._notes = "ignored";
    yield c;
  }
}

function viaSchema(raw: Record<string, unknown>): string {
  const r = v.safeParse(InstanceRuntimeSchema, dropUnderscoreKeys(raw));
  if (!r.success) return "error";
  const o = r.output;
  const globs = Object.fromEntries(Object.entries(o.transcript_globs ?? {}).filter(([k]) => !k.startsWith("_")));
  return JSON.stringify({ m: o.master_host_runtime ?? null, p: o.product_repo ?? null, g: globs });
}

function viaLoader(raw: Record<string, unknown>): string {
  try {
    const c = parseInstanceConfig(JSON.stringify(raw), "/cfg.json");
    return JSON.stringify({ m: c.masterHostRuntime, p: c.productRepo, g: c.transcriptGlobs });
  } catch (e) {
    if (e instanceof InstanceConfigError) return "error";
    throw e;
  }
}

describe("instance config fast path", () => {
  test("agrees with the valibot schema on 3,000 generated configs", () => {
    const disagreements: string[] = [];
    for (const c of configs()) {
      const a = viaSchema(c);
      const b = viaLoader(c);
      if (a !== b) disagreements.push(`${JSON.stringify(c)}: schema ${a}, loader ${b}`);
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
