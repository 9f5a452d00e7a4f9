/** What a redaction scan reads: the file list of each mode, commit messages of a range, file contents. */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { git, gitEnv } from "../../lib/git.ts";
import { decodeUtf16, utf16Encoding } from "./decode.ts";
import type { Ctx } from "../../lib/context.ts";
import { keepOutOfFTL } from "./tier.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export type Mode = "tracked" | "staged" | "range" | "paths";

export class SourceError extends Error {
  override name = "SourceError";
}

const GIT_TIMEOUT = 120_000;

export async function repoRoot(ctx: Ctx, dir: string): Promise<string | null> {
  const r = await git(ctx, dir, ["rev-parse", "--show-toplevel"], GIT_TIMEOUT);
  return r.ok ? r.stdout.trim() : null;
}

function nulList(out: string): string[] {
  return out.split("\0").filter((s) => s !== "");
}

async function gitList(ctx: Ctx, root: string, args: string[]): Promise<string[]> {
  const r = await git(ctx, root, args, GIT_TIMEOUT);
  if (!r.ok) throw new SourceError(`git ${args[0]} failed: ${r.why}`);
  return nulList(r.stdout);
}

export function trackedFiles(ctx: Ctx, root: string): Promise<string[]> {
  return gitList(ctx, root, ["ls-files", "-z"]);
}

export function stagedFiles(ctx: Ctx, root: string): Promise<string[]> {
  return gitList(ctx, root, ["diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR"]);
}

export function rangeFiles(ctx: Ctx, root: string, range: string): Promise<string[]> {
  return gitList(ctx, root, ["diff", "--name-only", "-z", "--diff-filter=ACMR", range]);
}

/** `git rev-list --max-count=0 <range>` succeeds only for a range that resolves here. */
export async function rangeResolves(ctx: Ctx, root: string, range: string): Promise<boolean> {
  if (range.startsWith("-")) return false;
  return (await git(ctx, root, ["rev-list", "--max-count=0", range, "--"], GIT_TIMEOUT)).ok;
}

export interface Message {
  sha: string;
  body: string;
}

/** Every commit message of the range, in one git call (NUL never occurs inside a message). */
export async function commitMessages(ctx: Ctx, root: string, range: string): Promise<Message[]> {
  const r = await git(ctx, root, ["log", "--format=%x00%H%x00%B", range, "--"], GIT_TIMEOUT);
  if (!r.ok) throw new SourceError(`git log failed: ${r.why}`);
  const parts = r.stdout.split("\0");
  const out: Message[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) out.push({ sha: parts[i]!.trim(), body: parts[i + 1]! });
  return out;
}

/** `--paths`: files as given, directories walked (no `.git`, symlinked directories not followed). */
export function expandPaths(base: string, paths: readonly string[]): string[] {
  return expandPathRefs(base, paths).map((r) => r.abs);
}

export interface PathRef {
  abs: string;
  /** The walk saw a regular file here (a batch reads it without an lstat first; batch.ts). */
  regular?: true;
}

/** expandPaths, keeping what the directory walk learnt about each entry; `found` hears the count as it grows. */
export function expandPathRefs(base: string, paths: readonly string[], found?: (count: number) => void): PathRef[] {
  const out: PathRef[] = [];
  const walk = (abs: string) => {
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      throw new SourceError(`cannot read directory ${abs}`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name === ".git") continue;
      // `abs` is normalised (resolve) and a directory entry's name holds no separator: plain concatenation is join.
      const p = abs === sep ? abs + e.name : abs + sep + e.name;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push({ abs: p, regular: true });
      else if (e.isSymbolicLink()) out.push({ abs: p });
    }
    found?.(out.length);
  };
  for (const p of paths) {
    const abs = resolve(base, p);
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      throw new SourceError(`no such path: ${p}`);
    }
    if (st.isDirectory()) walk(abs);
    else out.push({ abs });
  }
  // One walk lists a file once: only several paths can name one twice.
  if (paths.length < 2) return out;
  const seen = new Set<string>();
  return out.filter((r) => !seen.has(r.abs) && Boolean(seen.add(r.abs)));
}

/** How a path is shown in findings and matched by path allowlists: relative to the root when inside it. */
export function displayPath(root: string, abs: string): string {
  // Both are normalised absolute paths here; under the root the relative path is the rest of the string.
  if (sep === "/" && root.length > 1 && !root.endsWith("/") && abs.startsWith(root) && abs[root.length] === "/" && isAbsolute(root)) {
    const rest = abs.slice(root.length + 1);
    // Only plain names: anything with a `.` or `/` where normalisation could matter takes path.relative.
    if (rest !== "" && !/^[./]|\/[./]|\/$/.test(rest)) return rest;
  }
  const rel = relative(root, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return abs;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

const BINARY_PROBE = 8000;

/** A file's text; "binary" for a file skipped as binary (a blind spot the report lists); null: nothing to read. */
export type ReadResult = { text: string; bytes: number } | "binary" | null;

/**
 * The text of one file, or null to skip it: not a regular file (a submodule, a deleted path), or "binary" (a NUL in
 * the first 8000 bytes, unless a UTF-16 byte-order mark says it is UTF-16 text, which is decoded). A symlink is
 * scanned as its target string (what git stores), never followed: a tracked link must not make the scan read
 * outside the repository.
 */
export function readText(abs: string): ReadResult {
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) {
    const target = readlinkSync(abs);
    return { text: target, bytes: target.length };
  }
  if (!st.isFile()) return null;
  // A large file is probed for NUL bytes before it is decoded (a big binary is never turned into a string).
  if (st.size > DIRECT_DECODE_MAX) return fromBytes(readBytes(abs));
  let text: string;
  try {
    // Decoding straight to a string (no intermediate Buffer) is the cheaper read; it decodes exactly as
    // Buffer#toString("utf8") does (invalid bytes become U+FFFD, a BOM stays).
    text = readFileSync(abs, "utf8");
  } catch (e) {
    throw unreadable(abs, e);
  }
  // Binary: a NUL byte in the first 8000 bytes. A NUL byte decodes to U+0000 and every character takes at least one
  // byte, so a U+0000 past character 8000 lies past byte 8000; one before it is settled on the bytes. A UTF-16
  // byte-order mark (FF FE / FE FF) decodes to two U+FFFD.
  if (text.lastIndexOf("\0", BINARY_PROBE - 1) >= 0 || text.startsWith("\ufffd\ufffd")) return fromBytes(readBytes(abs));
  return { text, bytes: st.size };
}

function fromBytes(buf: Buffer): ReadResult {
  const enc = utf16Encoding(buf);
  if (enc) return { text: decodeUtf16(buf, enc), bytes: buf.length };
  if (buf.subarray(0, BINARY_PROBE).indexOf(0) >= 0) return "binary";
  return { text: buf.toString("utf8"), bytes: buf.length };
}

const DIRECT_DECODE_MAX = 1 << 20;

/** Fail closed: a file that exists but cannot be read is not "clean". */
function unreadable(abs: string, e: unknown): SourceError {
  return new SourceError(`cannot read ${abs}: ${errnoCode(e) ?? errorMessage(e)}`);
}

function readBytes(abs: string): Buffer {
  try {
    return readFileSync(abs);
  } catch (e) {
    throw unreadable(abs, e);
  }
}

export interface BlobRef {
  path: string;
  sha: string;
  mode: string;
}

/**
 * The committed (range) or staged content of each listed path, read from git objects, not the working tree: a
 * secret committed and then deleted or edited locally must still be found. Gitlinks (submodules) are skipped.
 */
export async function blobsAt(ctx: Ctx, root: string, source: { rev: string } | { index: true }, paths: readonly string[]): Promise<BlobRef[]> {
  const wanted = new Set(paths);
  const out: BlobRef[] = [];
  if ("rev" in source) {
    for (const entry of await gitList(ctx, root, ["ls-tree", "-r", "-z", "--full-tree", source.rev])) {
      const tab = entry.indexOf("\t");
      const [mode, type, sha] = entry.slice(0, tab).split(" ");
      const path = entry.slice(tab + 1);
      if (type === "blob" && wanted.has(path)) out.push({ path, sha: sha!, mode: mode! });
    }
  } else {
    for (const entry of await gitList(ctx, root, ["ls-files", "-s", "-z"])) {
      const tab = entry.indexOf("\t");
      const [mode, sha] = entry.slice(0, tab).split(" ");
      const path = entry.slice(tab + 1);
      if (mode !== "160000" && wanted.has(path)) out.push({ path, sha: sha!, mode: mode! });
    }
  }
  return out;
}

/**
 * Contents of blobs by sha with one `git cat-file --batch`. The runner gives decoded text, so objects are split at
 * the next requested object's header line rather than by byte size.
 */
export async function blobTexts(ctx: Ctx, root: string, shas: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(shas)];
  const out = new Map<string, string>();
  if (unique.length === 0) return out;
  const r = await ctx.runner(["git", "-C", root, "cat-file", "--batch"], { stdin: `${unique.join("\n")}\n`, env: gitEnv(ctx.env), timeoutMs: GIT_TIMEOUT });
  if (r.code !== 0 || r.timedOut || r.missing) throw new SourceError("git cat-file failed while reading committed content");
  const s = r.stdout;
  let pos = 0;
  for (let i = 0; i < unique.length; i++) {
    const sha = unique[i]!;
    const eol = s.indexOf("\n", pos);
    const header = s.slice(pos, eol);
    if (!header.startsWith(`${sha} `) || header.endsWith(" missing")) throw new SourceError(`git object ${sha.slice(0, 12)} is missing`);
    const start = eol + 1;
    const next = i + 1 < unique.length ? s.indexOf(`\n${unique[i + 1]} `, start) : s.length - 1;
    if (next < 0) throw new SourceError("git cat-file output could not be split");
    out.set(sha, s.slice(start, next));
    pos = next + 1;
  }
  return out;
}

/** The right-hand side of `A..B` / `A...B` (HEAD when empty). */
export function rangeTip(range: string): string {
  const tip = range.slice(range.lastIndexOf("..") + 2).replace(/^\./, "");
  return tip === "" ? "HEAD" : tip;
}

// The per-file path (tier.ts).
keepOutOfFTL(readText);
