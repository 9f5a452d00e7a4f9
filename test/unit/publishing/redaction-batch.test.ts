/**
 * The batched scan (batch.ts: files read into one buffer, presence tests answered per batch, base64 runs found with
 * WebAssembly SIMD) changes no finding. The oracle reads every file on its own (readText) and scans it with no
 * prefilter at all (every regex over every text, keywords checked): gitleaks' semantics. Files are real, on disk, and
 * of every kind a scan meets: secrets in their contexts, JSON-escaped and base64-encoded secrets, non-ASCII and
 * invalid UTF-8, binary files (a NUL early or late), UTF-16 with a byte-order mark, empty files, symlinks, and files
 * larger than a batch.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BATCH_BYTES } from "../../../src/publishing/redaction/batch.ts";
import { loadConfigFile } from "../../../src/publishing/redaction/config.ts";
import { base64Runs, base64RunsBytes } from "../../../src/publishing/redaction/decode.ts";
import { compileRules, scanTextBounded, type Finding } from "../../../src/publishing/redaction/engine.ts";
import { scanShard, type FileRef } from "../../../src/publishing/redaction/shard.ts";
import { simdRuns } from "../../../src/publishing/redaction/simd.ts";
import { expandPathRefs, readText } from "../../../src/publishing/redaction/sources.ts";
import { Gen, noPrefilter, rng, secretMakers } from "../../helpers/redaction-corpus.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const set = loadConfigFile(join(ROOT, "config", "gitleaks.toml"));
const c = compileRules(set.rules, set.allowlists);
/** The same rules with no prefilter: no lead gates, no presence tests, no literal gates. */
const plain = noPrefilter(c);

const seedOf = (name: string) => {
  const seed = Number(process.env[name] ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`${name.toLowerCase().replace(/_/g, " ")} ${seed} (${name})`);
  return seed;
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("base64 runs with WebAssembly SIMD equal base64Runs (property, seeded)", () => {
  const simd = simdRuns(1 << 16);
  expect(simd).not.toBeNull();
  const r = rng(seedOf("REDACTION_SIMD_SEED"));
  const alpha = ["a", "Z", "9", "+", "/", "-", "_", "=", " ", "\n", ".", "\0"];
  let runs = 0;
  for (let k = 0; k < 3000; k++) {
    // Mostly base64 characters, so runs reach across 64-bit mask words and past 64 characters.
    const p = 0.8 + r() * 0.2;
    let s = "";
    for (let i = Math.floor(r() * 700); i > 0; i--) s += r() < p ? alpha[Math.floor(r() * 7)] : alpha[7 + Math.floor(r() * 5)];
    simd!.heap.fill(0x41);
    simd!.heap.write(s, 0, "latin1");
    const want = base64Runs(s);
    runs += want.length;
    expect(simd!.runs(s.length)).toEqual(want);
  }
  expect(runs).toBeGreaterThan(5000);
});

test("base64RunsBytes (the fallback) equals base64Runs on one character per byte (property, seeded)", () => {
  const r = rng(seedOf("REDACTION_B64BYTES_SEED"));
  const alpha = ["a", "Z", "9", "+", "/", "-", "_", "=", " ", "\n", ".", "\xff"];
  for (let k = 0; k < 3000; k++) {
    let s = "";
    for (let i = Math.floor(r() * 200); i > 0; i--) s += r() < 0.85 ? alpha[Math.floor(r() * 7)] : alpha[7 + Math.floor(r() * 5)];
    const pad = Math.floor(r() * 5);
    const buf = Buffer.from(`${"~".repeat(pad)}${s}~`, "latin1");
    expect(base64RunsBytes(buf, pad, pad + s.length)).toEqual(base64Runs(s));
  }
});

test("the lowered copy with WebAssembly SIMD makes exactly the ASCII capitals small (every byte value, odd lengths)", () => {
  const simd = simdRuns(1 << 16)!;
  const r = rng(3);
  for (let k = 0; k < 200; k++) {
    const n = Math.floor(r() * 5000);
    const bytes = Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
    bytes.copy(simd.heap, 0);
    const want = Buffer.from(bytes.map((b) => (b >= 65 && b <= 90 ? b | 32 : b)));
    expect(Buffer.from(simd.lower(n))).toEqual(want);
  }
});

/** A random file body of one of the kinds a scan meets. */
function body(g: Gen, makers: Array<() => { value: string }>): string | Buffer {
  const secret = () => makers[Math.floor(g.r() * makers.length)]!().value;
  const words = () => Array.from({ length: 3 + Math.floor(g.r() * 8) }, () => g.one(["const", "token", "export", "value", "gh", "xo", "Bearer", "password", "=", ":", "sk-", "AKIA"])).join(" ");
  const lines = (n: number, extra: () => string) => Array.from({ length: n }, () => (g.r() < 0.15 ? extra() : words())).join("\n");
  switch (Math.floor(g.r() * 12)) {
    case 0:
      return "";
    case 1:
      return lines(20, () => `key = "${secret()}"`);
    case 2:
      // JSON escapes: the secret exists only once they are decoded.
      return `{"a": "${secret().replace(/[a-z]/, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`)}\\n${words()}"}`;
    case 3:
      return lines(10, () => `blob ${Buffer.from(`token: ${secret()}`).toString(g.r() < 0.5 ? "base64" : "base64url")}`);
    case 4:
      // Non-ASCII text (base64 runs counted in characters, not bytes), some runs right after a multi-byte character;
      // U+212A and U+0130, whose lowercase forms are ASCII (keywords are looked for in the lowercased text).
      return lines(15, () => (g.r() < 0.5 ? `é ünïcode ${secret()} 🙂 ${g.r() < 0.3 ? "HEROKU \u212a \u0130" : ""}` : `ü€${Buffer.from(`token: ${secret()}`).toString("base64")} 🙂 x`));
    case 5:
      // Invalid UTF-8 bytes around a secret, and before and after a base64 run.
      return Buffer.concat([
        Buffer.from(`${words()}\n`),
        Buffer.from([0xff, 0xc3, 0x28, 0x80]),
        Buffer.from(` k=${secret()}\n${words()} `),
        Buffer.from([0xe2, 0x82]),
        Buffer.from(Buffer.from(`password = "${secret()}"`).toString("base64")),
        Buffer.from([0xc3, 0x80, 0xf0, 0x9f]),
        Buffer.from(`\n${words()}`),
      ]);
    case 6:
      return Buffer.concat([Buffer.from(`${words()} ${secret()}\n`), Buffer.from([0]), Buffer.from(words())]);
    case 7:
      // A NUL past the first 8000 bytes: text.
      return Buffer.concat([Buffer.from(`${"x ".repeat(4100)}\n${secret()}\n`), Buffer.from([0]), Buffer.from(` ${secret()}`)]);
    case 8:
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${words()}\n${secret()}\n`, "utf16le")]);
    case 9:
      return `${lines(30, () => `x ${secret()} y`)}\n${"=".repeat(Math.floor(g.r() * 3))}`;
    case 10:
      // Long base64 runs and `=` padding next to the end of the file.
      return `${g.pick("ABCDEFGHabcdefgh0123+/", 20 + Math.floor(g.r() * 80))}${"=".repeat(Math.floor(g.r() * 4))}`;
    default:
      return lines(60, () => `${words()} ${secret()}`);
  }
}

type Result = { findings: Finding[]; more: number; suppressed: number; binary: number; binaryFiles: string[] };

/** The oracle: each file read on its own and scanned with no prefilter. */
function reference(files: readonly FileRef[]): Result {
  const out: Result = { findings: [], more: 0, suppressed: 0, binary: 0, binaryFiles: [] };
  for (const f of files) {
    const t = readText(f.abs);
    if (t === "binary") {
      out.binary++;
      out.binaryFiles.push(f.shown);
      continue;
    }
    if (!t) continue;
    const r = scanTextBounded(plain, f.shown, t.text, Infinity);
    out.findings.push(...r.findings);
  }
  return out;
}

test("a batched scan (with and without SIMD) gives the oracle's findings, in order, over every kind of file (property, seeded)", () => {
  const g = new Gen(rng(seedOf("REDACTION_BATCH_SEED")));
  const makers = secretMakers(g);
  for (let round = 0; round < 4; round++) {
    const dir = tempDir("batch-");
    dirs.push(dir);
    mkdirSync(join(dir, "d"));
    const n = 150 + Math.floor(g.r() * 150);
    for (let i = 0; i < n; i++) {
      const name = join(dir, "d", `f${String(i).padStart(4, "0")}`);
      if (g.r() < 0.03) symlinkSync(g.r() < 0.5 ? `/x/${makers[0]!().value}` : "f0000", name);
      else writeFileSync(name, body(g, makers));
    }
    // Files larger than a batch, and one that fills a batch to the last byte but one.
    const big = (name: string, text: string) => {
      rmSync(join(dir, "d", name), { force: true });
      writeFileSync(join(dir, "d", name), text);
    };
    big("f0050", `${"word ".repeat(BATCH_BYTES / 5 + 10)}\n${makers[4]!().value}\n`);
    big("f0100", `${"k".repeat(BATCH_BYTES - 3 - 2)}\n${"x"}\n`);
    const refs = expandPathRefs(dir, ["d"]).map((r) => ({ ...r, shown: r.abs.slice(dir.length + 1) }));
    // Half the rounds as a directory walk lists them (regular files known), half as git's list would (not known).
    const files = round % 2 ? refs.map(({ abs, shown }) => ({ abs, shown })) : refs;
    const want = reference(files);
    for (const simd of [true, false]) {
      const got = scanShard(c, files, { budget: Infinity, ignore: new Set(), simd });
      expect(got.findings).toEqual(want.findings);
      expect([got.binary, got.binaryFiles]).toEqual([want.binary, want.binaryFiles]);
    }
    expect(want.findings.length).toBeGreaterThan(30);
  }
});

test("a file swapped since it was listed: a symlink is read as its target string (never followed), a FIFO never blocks", () => {
  const dir = tempDir("batch-");
  dirs.push(dir);
  writeFileSync(join(dir, "outside"), `token ${"gh" + "p_"}${"A1b2C3d4".repeat(5)}\n`);
  symlinkSync(join(dir, "outside"), join(dir, "l"));
  expect(Bun.spawnSync(["mkfifo", join(dir, "p")]).exitCode).toBe(0);
  // Listed by a walk as regular files, which they no longer are.
  const files = ["l", "p"].map((n) => ({ abs: join(dir, n), shown: n, regular: true as const }));
  const r = scanShard(c, files, { budget: Infinity, ignore: new Set() });
  expect(r.findings).toEqual([]);
  expect(r.bytes).toBe(join(dir, "outside").length);
});
