/** Small filesystem predicates shared by the families, and atomic file replacement. */
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** A regular file (after following symlinks); false for anything missing or unreadable. */
export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * A fresh temp file beside `dest`, holding all of `data`: created with O_CREAT|O_EXCL|O_NOFOLLOW (nothing is written
 * through a planted link or over an existing file), partial writes looped, fsynced. The name is
 * `<prefix><basename>.<pid>-<random>.tmp`. `mode` is set exactly (umask ignored); without it the file gets 0o666
 * minus the umask, like a plain write. Returns the temp path; the caller renames it over `dest` (or removes it).
 */
export function writeTemp(dest: string, data: Uint8Array | string, mode?: number, prefix = ".", sync = true): string {
  const tmp = join(dirname(dest), `${prefix}${basename(dest)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o666);
  try {
    if (mode !== undefined) fchmodSync(fd, mode); // open's mode is filtered by the umask; the contract is the exact mode
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (sync) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  return tmp;
}

/**
 * Atomic file replacement, the one way mogui replaces a file: writeTemp beside the destination, then renamed over it,
 * so a reader never sees half a file, a failure leaves the old one intact and no temp file survives the call. A
 * symlink at `dest` is replaced, never followed.
 */
export function atomicWrite(dest: string, data: Uint8Array | string, mode?: number, prefix = ".", sync = true): void {
  const tmp = writeTemp(dest, data, mode, prefix, sync);
  try {
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
