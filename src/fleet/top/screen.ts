/**
 * The hand-written ANSI screen of `mogui top` (no TUI library: several break under `bun build --compile`): the
 * alternate screen, a hidden cursor, and diffed redraws: only the lines that changed since the last frame are
 * rewritten (cursor to the line, the text, erase to its end), so a refresh does not flicker. A resize redraws all.
 */

export interface TermOut {
  write(text: string): void;
}

const ENTER = "\x1b[?1049h\x1b[?25l\x1b[2J\x1b[H";
const LEAVE = "\x1b[0m\x1b[?25h\x1b[?1049l";

export class Screen {
  private prev: string[] = [];
  private width = 0;
  private height = 0;
  /** Bytes written by the last draw (the tests check that an unchanged frame costs nothing). */
  lastWrite = 0;

  constructor(private readonly out: TermOut) {}

  enter(): void {
    this.out.write(ENTER);
  }

  leave(): void {
    this.out.write(LEAVE);
  }

  /** Draw `lines` (exactly the screen's height); rewrite only what changed, everything after a resize. */
  draw(lines: readonly string[], width: number, height: number): void {
    let buf = "";
    if (width !== this.width || height !== this.height) {
      buf += "\x1b[2J";
      this.prev = [];
      this.width = width;
      this.height = height;
    }
    for (let i = 0; i < height; i++) {
      const line = lines[i] ?? "";
      if (this.prev[i] === line) continue;
      buf += `\x1b[${i + 1};1H${line}\x1b[0m\x1b[K`;
    }
    this.prev = lines.slice(0, height);
    this.lastWrite = buf.length;
    if (buf) this.out.write(buf);
  }

  /** Forget what is on the screen: the next draw rewrites every line. */
  invalidate(): void {
    this.prev = [];
  }
}
