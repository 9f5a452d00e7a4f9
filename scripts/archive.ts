// In-process archive writers for scripts/release.ts: a gzipped ustar tarball and a deflated zip, one executable
// each, deterministic (fixed mtime, uid/gid 0). Written here rather than by `tar`/`zip` so a release builds the same
// bytes on any machine and needs no tool or dependency beyond Bun.
import { deflateRawSync } from "node:zlib";

const enc = new TextEncoder();

function field(buf: Uint8Array, at: number, len: number, text: string): void {
  const bytes = enc.encode(text);
  if (bytes.length > len) throw new Error(`tar: field too long: ${text}`);
  buf.set(bytes, at);
}

const octal = (n: number, len: number) => `${n.toString(8).padStart(len - 1, "0")}\0`;

function tarHeader(name: string, size: number, mode: number, mtime: number, type: "0" | "5"): Uint8Array {
  const h = new Uint8Array(512);
  field(h, 0, 100, name);
  field(h, 100, 8, octal(mode, 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(size, 12));
  field(h, 136, 12, octal(mtime, 12));
  field(h, 148, 8, "        ");
  field(h, 156, 1, type);
  field(h, 257, 8, "ustar\x0000");
  field(h, 265, 32, "root");
  field(h, 297, 32, "root");
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

/** `<dir>/` plus `<dir>/<name>` (mode 0755), gzipped. */
export function tarGz(dir: string, name: string, data: Uint8Array, mtime: number): Uint8Array {
  const pad = (512 - (data.length % 512)) % 512;
  const parts = [tarHeader(`${dir}/`, 0, 0o755, mtime, "5"), tarHeader(`${dir}/${name}`, data.length, 0o755, mtime, "0"), data, new Uint8Array(pad + 1024)];
  return Bun.gzipSync(concat(parts), { level: 9 });
}

function dosTime(mtime: number): { time: number; date: number } {
  const d = new Date(mtime * 1000);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** Little-endian fields written one after the other: [value, 2 | 4 bytes]. */
function le(fields: Array<[number, 2 | 4]>): Uint8Array {
  const view = new DataView(new ArrayBuffer(fields.reduce((n, [, w]) => n + w, 0)));
  let at = 0;
  for (const [v, w] of fields) {
    if (w === 4) view.setUint32(at, v >>> 0, true);
    else view.setUint16(at, v, true);
    at += w;
  }
  return new Uint8Array(view.buffer);
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A zip with `<dir>/<name>`, deflated (no zip64: one entry well under 4 GB). */
export function zip(dir: string, name: string, data: Uint8Array, mtime: number): Uint8Array {
  const path = enc.encode(`${dir}/${name}`);
  const body = deflateRawSync(data, { level: 9 });
  const crc = Bun.hash.crc32(data);
  const { time, date } = dosTime(mtime);
  // version, flags, method (8 = deflate), time, date, crc, sizes, name length, extra length
  const common: Array<[number, 2 | 4]> = [
    [20, 2],
    [0, 2],
    [8, 2],
    [time, 2],
    [date, 2],
    [crc, 4],
    [body.length, 4],
    [data.length, 4],
    [path.length, 2],
    [0, 2],
  ];
  const local = le([[0x04034b50, 4], ...common]);
  // made by unix (3) so the 0755 mode in the external attributes is honoured by unzip
  const central = le([[0x02014b50, 4], [(3 << 8) | 20, 2], ...common, [0, 2], [0, 2], [0, 2], [0o100755 * 0x10000, 4], [0, 4]]);
  const end = le([
    [0x06054b50, 4],
    [0, 2],
    [0, 2],
    [1, 2],
    [1, 2],
    [central.length + path.length, 4],
    [local.length + path.length + body.length, 4],
    [0, 2],
  ]);
  return concat([local, path, body, central, path, end]);
}
