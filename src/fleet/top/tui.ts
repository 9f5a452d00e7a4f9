/**
 * The live screen of `mogui top`: the alternate screen, a refresh every interval (and on `r`), diffed redraws,
 * raw-mode keys (k9s-style), SIGWINCH, and the terminal restored on `q`, Ctrl-C, SIGINT, SIGTERM and SIGHUP.
 */
import type { ReapOutcome } from "./action.ts";
import type { TopFrame, TopRow } from "./row.ts";
import { initialView, ordered, renderScreen, SORT_KEYS, type View } from "./render.ts";
import { Screen } from "./screen.ts";
import type { Terminal } from "./terminal.ts";

export interface TuiDeps {
  term: Terminal;
  frame(force: boolean): Promise<TopFrame>;
  detail(row: TopRow): Promise<string[]>;
  reap(row: TopRow): Promise<ReapOutcome>;
  intervalMs: number;
  colour: boolean;
  readonly: boolean;
  /** An error of a refresh or an action as one line (never a stack). */
  describe(e: unknown): string;
  /** Called once on quit: a refresh in flight should wind down. */
  stop?(): void;
}

/** Key bytes -> key names: arrows, Enter, Esc, Backspace, Ctrl-C, or the character itself. */
export function splitKeys(data: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < data.length; ) {
    const rest = data.slice(i);
    const m = rest.match(/^\x1b(?:\[|O)([ABCD])/);
    if (m) {
      out.push({ A: "up", B: "down", C: "right", D: "left" }[m[1] as "A" | "B" | "C" | "D"]);
      i += m[0].length;
      continue;
    }
    const other = rest.match(/^\x1b\[[0-9;]*[~A-Za-z]/);
    if (other) {
      i += other[0].length;
      continue;
    }
    const ch = data[i]!;
    i++;
    if (ch === "\x1b") out.push("esc");
    else if (ch === "\r" || ch === "\n") out.push("enter");
    else if (ch === "\x7f" || ch === "\b") out.push("backspace");
    else if (ch === "\x03") out.push("ctrl-c");
    else out.push(ch);
  }
  return out;
}

export async function runTui(d: TuiDeps): Promise<string> {
  const screen = new Screen({ write: (t) => d.term.write(t) });
  const view: View = initialView(d.readonly);
  let frame: TopFrame | null = null;
  let selectedId: string | null = null;
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let done: (why: string) => void = () => {};
  const finished = new Promise<string>((r) => (done = r));
  let over = false;

  const rows = () => (frame ? ordered(frame.rows, view) : []);
  const current = () => rows()[view.selected] ?? null;
  const draw = () => {
    if (over) return;
    const list = rows();
    view.selected = Math.max(0, Math.min(view.selected, list.length - 1));
    selectedId = list[view.selected]?.id ?? selectedId;
    screen.draw(renderScreen(frame, view, Math.max(1, d.term.columns()), Math.max(2, d.term.rows()), d.colour), Math.max(1, d.term.columns()), Math.max(2, d.term.rows()));
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    if (!over) timer = setTimeout(() => void refresh(false), d.intervalMs);
  };
  const refresh = async (force: boolean) => {
    if (busy || over) return;
    busy = true;
    try {
      frame = await d.frame(force);
      // The selection follows its row across refreshes.
      const i = rows().findIndex((r) => r.id === selectedId);
      if (i >= 0) view.selected = i;
    } catch (e) {
      view.message = `refresh failed: ${d.describe(e)}`;
    } finally {
      busy = false;
    }
    draw();
    schedule();
  };
  const quit = (why: string) => {
    if (over) return;
    over = true;
    d.stop?.();
    done(why);
  };

  const onKey = async (k: string) => {
    if (k === "ctrl-c") return quit("ctrl-c");
    if (view.filtering) {
      if (k === "enter") view.filtering = false;
      else if (k === "esc") Object.assign(view, { filter: "", filtering: false });
      else if (k === "backspace") view.filter = view.filter.slice(0, -1);
      else if (k.length === 1 && k >= " ") view.filter += k;
      view.selected = 0;
      return draw();
    }
    if (view.mode === "confirm") {
      const row = current();
      view.mode = "list";
      if ((k === "y" || k === "Y") && row) {
        view.message = `reaping ${row.worktree} (fleet reap's checks)...`;
        draw();
        try {
          view.message = (await d.reap(row)).message;
        } catch (e) {
          view.message = `reap failed: ${d.describe(e)}`;
        }
        return refresh(true);
      }
      view.message = "reap cancelled";
      return draw();
    }
    if (view.mode === "help") {
      view.mode = "list";
      return draw();
    }
    if (view.mode === "detail") {
      if (k === "q") return quit("q");
      if (k === "esc" || k === "enter") view.mode = "list";
      return draw();
    }
    view.message = "";
    switch (k) {
      case "q":
        return quit("q");
      case "?":
        view.mode = "help";
        break;
      case "/":
        view.filtering = true;
        break;
      case "esc":
        view.filter = "";
        break;
      case "j":
      case "down":
        view.selected = Math.min(view.selected + 1, Math.max(0, rows().length - 1));
        break;
      case "k":
      case "up":
        view.selected = Math.max(0, view.selected - 1);
        break;
      case "s":
        view.sort = SORT_KEYS[(SORT_KEYS.indexOf(view.sort) + 1) % SORT_KEYS.length]!;
        break;
      case "r":
        view.message = "refreshing...";
        draw();
        return refresh(true);
      case "enter": {
        const row = current();
        if (!row) break;
        view.mode = "detail";
        view.detail = [`DETAIL ${row.id}`, "", "reading..."];
        draw();
        try {
          view.detail = await d.detail(row);
        } catch (e) {
          view.detail = [`DETAIL ${row.id}`, "", `could not read: ${d.describe(e)}`];
        }
        break;
      }
      case "d": {
        const row = current();
        if (view.readonly) view.message = "d is off: top runs read-only (--readonly)";
        else if (!row) view.message = "no row selected";
        else if (!row.worktree || !row.repo) view.message = `${row.id} has no worktree of a scanned repository to reap`;
        else {
          view.mode = "confirm";
          view.message = `Reap ${row.worktree}? fleet reap's checks decide; y/N`;
        }
        break;
      }
      default:
        return;
    }
    draw();
  };

  // Keys are handled one at a time, in order, even while an action waits.
  let chain = Promise.resolve();
  const stopKeys = d.term.keys((data) => {
    for (const k of splitKeys(data)) {
      chain = chain
        .then(() => onKey(k))
        .catch((e) => {
          view.message = d.describe(e);
        });
    }
  });
  const stopResize = d.term.onResize(() => {
    screen.invalidate();
    draw();
  });
  const stopSignals = d.term.onSignal((s) => quit(s));
  screen.enter();
  try {
    draw();
    void refresh(false);
    return await finished;
  } finally {
    over = true;
    if (timer) clearTimeout(timer);
    stopKeys();
    stopResize();
    stopSignals();
    screen.leave();
  }
}
