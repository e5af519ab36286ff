import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import type { CompiledSearch } from '../../../src-shared/logs/index';
import type { BufferClient } from './buffer-client';
import { layoutScreen, rowHeight } from './layout';
import type { Row } from './model';

export interface DisplayOptions {
  wrap: boolean;
  timestamps: boolean;
  search: CompiledSearch | null;
  /** View row of the current match, or -1. */
  currentRow: number;
}

export interface ScrollState {
  /** First view row on screen. */
  top: number;
  /** Rows in the view. */
  total: number;
  screenRows: number;
  following: boolean;
}

/**
 * xterm's flow control guide, applied to a viewer that repaints whole screens: writes are
 * counted until xterm's callback says they were parsed, and above the high watermark no new
 * frame is written — intermediate frames are simply skipped, since each one replaces the last —
 * until the backlog is below the low watermark again.
 */
const HIGH_WATERMARK = 256 * 1024;
const LOW_WATERMARK = 64 * 1024;

/**
 * The terminal shows exactly one screen of the filtered view, fetched from the buffer worker
 * when it is drawn; it holds no scrollback of its own (a million lines of xterm scrollback would
 * cost gigabytes). Scrolling, following the tail and jumping to a match only move `top`; every
 * change becomes one repaint on the next animation frame, however many lines arrived meanwhile.
 */
export class TerminalView {
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly resize: ResizeObserver;
  private display: DisplayOptions = { wrap: false, timestamps: false, search: null, currentRow: -1 };
  private top = 0;
  private sub = 0;
  private total = 0;
  private hscroll = 0;
  private following = true;
  private pending = 0;
  private frame = 0;
  private drawing = false;
  private dirty = false;
  private shown: Row[] = [];
  private disposed = false;

  constructor(
    host: HTMLElement,
    private readonly buffer: BufferClient,
    private readonly onState: (s: ScrollState) => void,
  ) {
    this.term = new Terminal({
      scrollback: 0,
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
      fontSize: 12,
      // Error lines in a red readable on the dark ground (6.6:1; xterm's #cd3131 is 3.6:1, which
      // axe reports once wrapped JSON error lines fill the screen).
      theme: { background: '#111418', foreground: '#d8dee9', selectionBackground: '#3b4252', red: '#f47174' },
    });
    this.term.loadAddon(this.fit);
    this.term.open(host);
    // No autowrap (we wrap ourselves, and a full line must not scroll), no cursor.
    this.term.write('\x1b[?7l\x1b[?25l');
    this.term.attachCustomWheelEventHandler((e) => this.onWheel(e));
    this.term.attachCustomKeyEventHandler((e) => this.onKey(e));
    this.resize = new ResizeObserver(() => this.refit());
    this.resize.observe(host);
    this.refit();
  }

  get screenRows(): number {
    return this.term.rows;
  }

  get screenCols(): number {
    return this.term.cols;
  }

  setDisplay(d: DisplayOptions): void {
    if (d.wrap !== this.display.wrap) this.sub = 0;
    this.display = d;
    this.requestRender();
  }

  /** The view changed size (lines arrived, or a new filter). */
  setTotal(total: number): void {
    this.total = total;
    if (this.top >= total) this.top = Math.max(0, total - 1);
    this.requestRender();
  }

  /** Stick to the newest line (resume). */
  follow(): void {
    this.following = true;
    this.sub = 0;
    this.requestRender();
  }

  /** Stop moving with new lines (pause); the screen stays where it is. */
  pause(): void {
    if (!this.following) return;
    this.following = false;
    this.top = this.bottomTop();
    this.requestRender();
  }

  /**
   * Shows `row`, centred when it was off screen, and pauses following. Without wrapping, the
   * text is also scrolled sideways so that `column` (where the match starts) is on screen.
   */
  reveal(row: number, column = 0, prefixWidth = 0): void {
    if (this.following) this.top = this.bottomTop();
    const visible = !this.following && row >= this.top && row < this.top + this.term.rows - 1;
    this.following = false;
    if (!visible) this.top = Math.max(0, row - Math.floor(this.term.rows / 2));
    this.sub = 0;
    const room = this.term.cols - prefixWidth;
    if (!this.display.wrap && (column < this.hscroll || column >= this.hscroll + room - 8)) {
      this.hscroll = Math.max(0, column - Math.floor(room / 4));
    }
    this.requestRender();
  }

  scrollTo(top: number): void {
    this.following = false;
    this.top = Math.max(0, Math.min(top, this.maxTop()));
    this.sub = 0;
    if (this.top >= this.maxTop() && this.total > 0) this.following = true;
    this.requestRender();
  }

  /** Scrolls by visual lines; reaching the end resumes following. */
  scrollBy(lines: number): void {
    if (this.following) {
      if (lines >= 0) return;
      this.following = false;
      this.top = this.bottomTop();
    }
    let n = lines;
    const first = this.shown[0];
    while (n > 0) {
      // Inside a wrapped row taller than the screen, move through it line by line.
      const h =
        first && first.index === this.top ? rowHeight(first, { ...this.display, cols: this.term.cols }) : 1;
      if (this.sub + this.term.rows < h) this.sub++;
      else if (this.top < this.maxTop()) {
        this.top++;
        this.sub = 0;
      } else break;
      n--;
    }
    while (n < 0) {
      if (this.sub > 0) this.sub--;
      else if (this.top > 0) this.top--;
      else break;
      n++;
    }
    if (lines > 0 && this.top >= this.maxTop()) this.following = true;
    this.requestRender();
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.term.dispose();
  }

  requestRender(): void {
    if (this.disposed) return;
    if (this.drawing || this.pending > LOW_WATERMARK) {
      this.dirty = true;
      return;
    }
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      void this.draw();
    });
  }

  private maxTop(): number {
    return this.display.wrap ? Math.max(0, this.total - 1) : Math.max(0, this.total - this.term.rows);
  }

  private bottomTop(): number {
    const firstShown = this.shown[0]?.index;
    return firstShown ?? Math.max(0, this.total - this.term.rows);
  }

  private async draw(): Promise<void> {
    this.drawing = true;
    this.dirty = false;
    const rows = this.term.rows;
    const following = this.following;
    const start = following ? Math.max(0, this.total - rows) : this.top;
    let fetched: Row[];
    try {
      fetched = await this.buffer.rowsAt(start, rows);
    } catch {
      fetched = [];
    }
    if (this.disposed) return;
    const layout = layoutScreen(fetched, {
      cols: this.term.cols,
      rows,
      wrap: this.display.wrap,
      timestamps: this.display.timestamps,
      hscroll: this.hscroll,
      search: this.display.search,
      currentRow: this.display.currentRow,
      anchorBottom: following,
      topSub: following ? 0 : this.sub,
    });
    const firstOnScreen = layout.lineRows.find((r) => r >= 0);
    this.shown = fetched.filter((r) => firstOnScreen === undefined || r.index >= firstOnScreen);
    this.write(layout.text);
    this.drawing = false;
    this.onState({
      top: following ? (firstOnScreen ?? start) : this.top,
      total: this.total,
      screenRows: rows,
      following,
    });
    if (this.dirty) this.requestRender();
  }

  private write(text: string): void {
    this.pending += text.length;
    this.term.write(text, () => {
      this.pending -= text.length;
      if (this.dirty && this.pending <= LOW_WATERMARK) this.requestRender();
    });
    if (this.pending > HIGH_WATERMARK) this.dirty = true;
  }

  private refit(): void {
    if (this.disposed) return;
    try {
      this.fit.fit();
    } catch {
      // Not laid out yet (hidden tab): the next resize fits.
    }
    this.requestRender();
  }

  private onWheel(e: WheelEvent): boolean {
    const unit = e.deltaMode === 1 ? 1 : e.deltaMode === 2 ? this.term.rows : 1 / 20;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      const d = Math.round((e.shiftKey ? e.deltaY : e.deltaX) * unit * 2);
      this.hscroll = Math.max(0, this.hscroll + d);
      this.requestRender();
    } else {
      const lines = e.deltaY * unit;
      this.scrollBy(lines > 0 ? Math.max(1, Math.round(lines)) : Math.min(-1, Math.round(lines)));
    }
    e.preventDefault();
    return false;
  }

  private onKey(e: KeyboardEvent): boolean {
    if (e.type !== 'keydown') return false;
    const page = Math.max(1, this.term.rows - 1);
    const moves: Record<string, () => void> = {
      PageDown: () => this.scrollBy(page),
      PageUp: () => this.scrollBy(-page),
      ArrowDown: () => this.scrollBy(1),
      ArrowUp: () => this.scrollBy(-1),
      Home: () => this.scrollTo(0),
      End: () => this.follow(),
      ArrowLeft: () => {
        this.hscroll = Math.max(0, this.hscroll - 8);
        this.requestRender();
      },
      ArrowRight: () => {
        this.hscroll += 8;
        this.requestRender();
      },
    };
    const move = moves[e.key];
    if (!move) return true;
    move();
    e.preventDefault();
    return false;
  }
}
