/** Atomic file replacement: a temp file beside the destination, then rename, so a reader never sees half a file. */
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function atomicWrite(dest: string, data: Uint8Array | string, mode: number, prefix = ".template-apply-"): void {
  const tmp = join(dirname(dest), `${prefix}${process.pid}-${Math.random().toString(36).slice(2, 10)}-${basename(dest)}`);
  const fd = openSync(tmp, "wx", mode);
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
    chmodSync(tmp, mode); // openSync's mode is filtered by the umask; the contract is the exact mode
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
