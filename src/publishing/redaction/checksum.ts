/**
 * Token checksums (issue 25 §1): GitHub's tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm's (`npm_`) end in
 * six base62 characters (alphabet `0-9A-Za-z`, zero-padded) holding the CRC32 of the 30 random characters before
 * them. A rule with `checksum = "crc32-base62"` (a mogui extension of the gitleaks format, which gitleaks ignores)
 * drops a match of that exact shape whose checksum is wrong: a made-up or truncated look-alike, never a real token.
 * A secret of another shape (an older 40-character token, a longer body) is kept as it is.
 */
import { keepOutOfFTL } from "./tier.ts";

const DICT = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c >>> 0;
}

export function crc32(s: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = TABLE[(c ^ s.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function base62(n: number, width: number): string {
  let s = "";
  for (let i = 0; i < width; i++) {
    s = DICT[n % 62]! + s;
    n = Math.floor(n / 62);
  }
  return s;
}

/** False only for a `<prefix>_` + 30 + 6 base62 token whose last six characters are not the CRC32 of the 30. */
export function checksumValid(secret: string): boolean {
  const at = secret.indexOf("_");
  const body = secret.slice(at + 1);
  if (at < 0 || body.length !== 36 || !/^[0-9A-Za-z]{36}$/.test(body)) return true;
  return base62(crc32(body.slice(0, 30)), 6) === body.slice(30);
}

const CHECKSUMMED = /^(?:gh[pousr]|npm)_[0-9A-Za-z]{36}$/;

/** A GitHub or npm token of the checksummed shape whose checksum is wrong: a look-alike for every rule. */
export function badChecksumToken(secret: string): boolean {
  return secret.length === 40 && CHECKSUMMED.test(secret) && !checksumValid(secret);
}

keepOutOfFTL(checksumValid, crc32, base62, badChecksumToken);
