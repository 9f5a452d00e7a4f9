// Proposed as test/unit/publishing/redaction-literals.test.ts (perfscan helper). The literal prefilter (src/redaction/
// literals.ts) must never reject a text the rule regex matches, and the keyword test must equal gitleaks' lowercase
// test, including for the two characters whose lowercase is ASCII (U+0130, U+212A).
import { describe, expect, test } from "bun:test";
import { Gate, prefilterOf } from "../../../src/publishing/redaction/literals.ts";
import { compileRe2 } from "../../../src/publishing/redaction/re2.ts";

const factors = (p: string) => prefilterOf(compileRe2(p)).factors;

describe("required literals", () => {
  test("sequences, alternations, optional parts and small classes", () => {
    expect(factors("ab+c")).toEqual([["ab"], ["c"]]);
    expect(factors("ab*c")).toEqual([["a"], ["c"]]);
    expect(factors("x(?:foo|bar)?y")).toEqual([["x"], ["y"]]);
    expect(factors("(?:ab|cd)(?:ef|gh)")).toEqual([
      ["ab", "cd"],
      ["ef", "gh"],
    ]);
    expect(factors("key\\s*[:=]")).toEqual([["key"], [":", "="]]);
    expect(factors("foo|")).toEqual([]);
    expect(factors("[a-z]+\\d")).toEqual([]);
    expect(factors("(?i)(?-i:abc)d")).toEqual([["d"]]);
  });

  test("fuzz: a text the regex matches always passes the gate", () => {
    let seed = 11;
    // mulberry32: deterministic, and good enough that patterns and texts vary independently.
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
    const ALPH = "abAB-_.:= 1\n\u212aK\u0130i\u017fsS\"'";
    const atom = (d: number): string => {
      const r = rnd();
      if (d > 3 || r < 0.45) return pick(["a", "b", "A", "k", "s", "i", "-", "_", "\\.", "1", " ", ":", "=", "ab", "ks"]);
      if (r < 0.55) return pick(["[ab]", "[^a]", "\\d", "\\w", "\\s", ".", "\\b", "^", "$", "[:=]", "[\"']", "[a-]", "[Ks]", "\\x41"]);
      if (r < 0.8) return `(?:${alt(d + 1)})`;
      if (r < 0.9) return `(${alt(d + 1)})`;
      return `(?i:${alt(d + 1)})`;
    };
    const quant = (a: string) => (rnd() < 0.65 || /^(\\b|\^|\$)$/.test(a) ? a : a + pick(["*", "+", "?", "{2}", "{0,2}", "{1,}", "*?"]));
    const seq = (d: number) => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => quant(atom(d))).join("");
    const alt = (d: number): string => Array.from({ length: rnd() < 0.7 ? 1 : 2 + Math.floor(rnd() * 2) }, () => seq(d)).join("|");
    let misses = 0;
    let matched = 0;
    for (let n = 0; n < 3000; n++) {
      let re: RegExp;
      try {
        re = compileRe2(pick(["", "(?i)", "(?m)"]) + alt(0));
      } catch {
        continue;
      }
      const kw = rnd() < 0.5 ? [] : [pick(["ab", "k", "i", "s-", "1"])];
      const gate = new Gate(kw, prefilterOf(re));
      for (let t = 0; t < 30; t++) {
        let text = "";
        for (let i = Math.floor(rnd() * 14); i > 0; i--) text += ALPH[Math.floor(rnd() * ALPH.length)];
        const low = text.toLowerCase();
        const kwOk = kw.length === 0 || kw.some((k) => low.includes(k));
        re.lastIndex = 0;
        if (re.exec(text) && kwOk) {
          matched++;
          if (!gate.passes(text, () => low)) misses++;
        }
        if (new Gate(kw, { factors: [], flags: "" }).passes(text, () => low) !== kwOk) misses++;
      }
    }
    expect(matched).toBeGreaterThan(1000);
    expect(misses).toBe(0);
  });
});
