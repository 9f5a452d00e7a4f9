/** Small filesystem predicates shared by the families, and atomic file replacement. */
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
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
 * Atomic file replacement: a fresh temp file beside the destination (O_EXCL, so nothing is written through a planted
 * link), fsynced, then renamed over it, so a reader never sees half a file and a failure leaves the old one intact.
 * The temp name is `<prefix><basename>.<pid>-<random>.tmp`; it never survives a call. `mode` set exactly (umask
 * ignored); without it the file gets 0o666 minus the umask, like a plain write.
 */
export function atomicWrite(dest: string, data: Uint8Array | string, mode?: number, prefix = ".template-apply-"): void {
  const tmp = join(dirname(dest), `${prefix}${basename(dest)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fd = openSync(tmp, "wx", mode ?? 0o666);
  try {
    writeSync(fd, typeof data === "string" ? new TextEncoder().encode(data) : data);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    if (mode !== undefined) chmodSync(tmp, mode); // openSync's mode is filtered by the umask; the contract is the exact mode
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
