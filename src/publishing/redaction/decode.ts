/**
 * What a scan decodes before matching (issue 14): UTF-16 files with a byte-order mark, JSON string escapes, and
 * base64 runs. Each step keeps line numbers: an unescaped `\n` becomes a space, never a line break, and a finding in
 * decoded base64 is reported at the line of the run.
 */
import { keepOutOfFTL } from "./tier.ts";

/** The text of a file's bytes: UTF-16 (LE or BE) when it starts with a byte-order mark, else UTF-8. */
export function utf16Encoding(buf: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return "utf-16le";
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return "utf-16be";
  return null;
}

export function decodeUtf16(buf: Uint8Array, enc: "utf-16le" | "utf-16be"): string {
  // TextDecoder drops the byte-order mark itself.
  return new TextDecoder(enc).decode(buf);
}

/**
 * Content read through git as UTF-8 text: a UTF-16 blob arrives as two U+FFFD (its BOM) followed by characters with
 * U+0000 between them. Its ASCII content (every token a rule knows is ASCII) is recovered by dropping the NULs.
 */
export function recoverUtf16Text(text: string): string | null {
  if (!text.startsWith("\ufffd\ufffd")) return null;
  const head = text.slice(2, 402);
  const nuls = head.split("\0").length - 1;
  if (nuls < head.length / 3) return null;
  return text.slice(2).replace(/\0/g, "");
}

/**
 * JSON string escapes decoded in place (`\"`, `\\`, `\/`, `\uXXXX`); `\n`, `\r`, `\t` and escaped control or line
 * separator characters become one space, so line numbers stay those of the file. Text without a backslash is
 * returned as is (no copy).
 */
export function unescapeJson(text: string): string {
  let i = text.indexOf("\\");
  if (i < 0) return text;
  // One pass from backslash to backslash (a `replace` with a callback per escape took twice as long on a transcript).
  const parts: string[] = [];
  let from = 0;
  while (i >= 0) {
    const c = text.charCodeAt(i + 1);
    let rep: string;
    let len = 2;
    if (c === 110 || c === 114 || c === 116) rep = " ";
    else if (c === 34 || c === 92 || c === 47) rep = text[i + 1]!;
    else if (c === 117 && HEX4.test(text.slice(i + 2, i + 6))) {
      const code = parseInt(text.slice(i + 2, i + 6), 16);
      rep = code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 ? " " : String.fromCharCode(code);
      len = 6;
    } else {
      // Not an escape: the search goes on from the next character.
      i = text.indexOf("\\", i + 1);
      continue;
    }
    parts.push(text.slice(from, i), rep);
    from = i + len;
    i = text.indexOf("\\", from);
  }
  parts.push(text.slice(from));
  return parts.join("");
}

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Characters of a base64 run: both alphabets (standard `+/` and URL-safe `-_`), indexed by UTF-16 code unit. */
const B64 = new Uint8Array(65536);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") B64[ch.charCodeAt(0)] = 1;

export const MIN_BASE64_RUN = 20;
/** Longer runs (embedded images, bundles) are not decoded: a secret is short. */
export const MAX_BASE64_RUN = 64 * 1024;

export interface Run {
  start: number;
  end: number;
}

/**
 * Maximal base64 runs of 20+ characters (with their `=` padding), in order. Every such run covers one of every 20
 * consecutive positions, so only every 20th character is probed; a probe inside a word finds the word's start and
 * checks, from 19 characters further back to front, that the run really is 20 long (in text, the first character
 * checked usually fails and the next probe goes 20 past it). A text without long runs is read about a sixth.
 */
export function base64Runs(text: string): Run[] {
  return probeRuns((i) => text.charCodeAt(i), 0, text.length);
}

/**
 * base64Runs over the bytes `start`..`end` of `buf` (offsets relative to `start`): the same runs as base64Runs of
 * the decoded text whenever that text has exactly one character per byte (every byte ASCII, or an invalid byte
 * decoded to one U+FFFD), since a run's characters are ASCII and every other byte breaks a run in both. The
 * fallback where WebAssembly SIMD is missing (simd.ts finds a batch's runs otherwise).
 */
export function base64RunsBytes(buf: Uint8Array, start: number, end: number): Run[] {
  return probeRuns((i) => buf[i]!, start, end);
}

/** The probing of base64Runs over the code units `code(start)` .. `code(end - 1)`; runs relative to `start`. */
function probeRuns(code: (i: number) => number, start: number, n: number): Run[] {
  const out: Run[] = [];
  const L = MIN_BASE64_RUN;
  for (let p = start + L - 1; p < n; ) {
    if (B64[code(p)] === 0) {
      p += L;
      continue;
    }
    let s = p;
    while (s > start && B64[code(s - 1)] === 1) s--;
    if (s + L > n) break;
    let gap = -1;
    for (let k = s + L - 1; k > p; k--) {
      if (B64[code(k)] === 0) {
        gap = k;
        break;
      }
    }
    if (gap >= 0) {
      // No run of 20 starts at or before `gap`: the next one, if any, covers gap + 20.
      p = gap + L;
      continue;
    }
    let e = s + L;
    while (e < n && B64[code(e)] === 1) e++;
    let end = e;
    while (end < n && end - e < 2 && code(end) === 61) end++;
    if (e - s <= MAX_BASE64_RUN) out.push({ start: s - start, end: end - start });
    p = e + L;
  }
  return out;
}

/** A run of URL-ish characters holding at least one `%XX` escape (a query string, a form body, a cookie). */
const URLISH = new Uint8Array(65536);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%._~+/=:@&?!$'()*,;#[]-") URLISH[ch.charCodeAt(0)] = 1;

const HEXCH = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * The percent-encoded runs of `text` that decode to something else (issue 25: one more decoding): from each `%XX`
 * (found by indexOf, so a text of `%s` and `100%` costs a few searches) out to the run's ends.
 */
export function percentRuns(text: string): Run[] {
  const out: Run[] = [];
  let end = 0;
  for (let i = text.indexOf("%"); i >= 0; i = text.indexOf("%", Math.max(i + 1, end))) {
    if (i < end || !HEXCH(text.charCodeAt(i + 1)) || !HEXCH(text.charCodeAt(i + 2))) continue;
    let s = i;
    while (s > 0 && URLISH[text.charCodeAt(s - 1)] === 1 && i - s < MAX_BASE64_RUN) s--;
    let e = i + 3;
    while (e < text.length && URLISH[text.charCodeAt(e)] === 1 && e - i < MAX_BASE64_RUN) e++;
    end = e;
    if (e - s >= 8) out.push({ start: s, end: e });
  }
  return out;
}

/** A percent-encoded run decoded (`+` stays, as in a path); null when it is not valid UTF-8 escapes. */
export function decodePercent(run: string): string | null {
  try {
    const out = decodeURIComponent(run.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
    // Query and form fields become lines, so `password=...` is a whole line's value as in a dotenv file.
    return out === run ? null : out.replace(/[\r\n]/g, " ").replace(/[?&]/g, "\n");
  } catch {
    return null;
  }
}

/**
 * Whether the bytes read as text: no NUL, at least 95% printable ASCII, tabs, line breaks or valid UTF-8. `bad`: the
 * invalid UTF-8 sequences already counted (U+FFFD in the decoded text); an identifier read as base64 (`secret_name`)
 * decodes to such bytes.
 */
function looksLikeText(buf: Buffer, bad: number): boolean {
  if (buf.length < 12) return false;
  let letters = 0;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (b === 0) return false;
    if ((b < 32 && b !== 9 && b !== 10 && b !== 13) || b === 127) bad++;
    else if ((b >= 65 && b <= 90) || (b >= 97 && b <= 122)) letters++;
  }
  return bad * 20 <= buf.length && letters > 0;
}

/** How many U+FFFD `text` holds (one per invalid UTF-8 sequence of the bytes it was decoded from). */
function replacements(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\ufffd"); i >= 0; i = text.indexOf("\ufffd", i + 1)) n++;
  return n;
}

/** The decoded text of one run, or null when it is not base64 of text (most runs: identifiers, hashes, binaries). */
export function decodeBase64Text(run: string): string | null {
  const body = run.replace(/=+$/, "");
  if (body.length % 4 === 1) return null;
  const url = /[-_]/.test(body);
  if (url && /[+/]/.test(body)) return null;
  const buf = Buffer.from(body, url ? "base64url" : "base64");
  if (buf.length < 12) return null;
  const text = buf.toString("utf8");
  return looksLikeText(buf, replacements(text)) ? text : null;
}

// The per-text path (tier.ts).
keepOutOfFTL(unescapeJson, decodeBase64Text, looksLikeText, replacements, percentRuns, decodePercent);
