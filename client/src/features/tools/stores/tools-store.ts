import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { endpoints } from '@imagestudio/contracts';
import type { BatchTool, JobName, ToolQuote, ToolStatus, UpscaleModel } from '@imagestudio/contracts';
import type { BatchRunStore } from './batch-run-store';
import type { RootStore } from '../../../stores/root-store';
import { storeFactories } from '../../../stores/lazy-stores';
import type { ToolRunStore } from './tool-run-store';

/** Quote cache key: the same tool, count, factor and model always cost the same until settings change. */
const quoteKey = (tool: JobName, count: number, factor?: number, model?: string) =>
  `${tool}:${count}:${factor ?? ''}:${model ?? ''}`;

/** The image tools: which can run now (/api/tools/status), what a run costs (/api/tools/quote), each tool's run. */
export class ToolsStore {
  status: ToolStatus | null = null;
  statusLoading = false;
  quotes = new Map<string, ToolQuote>();
  /** An image handed from one tool to another (a generated result sent to upscale), taken once. */
  handoff: { tool: JobName; file: File } | null = null;
  private createdRuns: Record<JobName, ToolRunStore> | null = null;
  private createdBatches: Record<BatchTool, BatchRunStore> | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ToolsStore, 'root' | 'createdRuns' | 'createdBatches'>(this, {
      root: false,
      runs: false,
      createdRuns: false,
      batches: false,
      createdBatches: false,
    });
    // Another user may sign in next: nothing of this user's runs stays on screen.
    reaction(
      () => root.auth.isAuthenticated,
      (signedIn) => {
        if (!signedIn) this.resetAll();
      },
    );
  }

  /**
   * Each tool's run, created on first read: the run stores' code arrives with the tool pages (lazy-stores.ts),
   * so the home page, which only shows the tools' availability, does without it.
   */
  get runs(): Record<JobName, ToolRunStore> {
    if (!this.createdRuns) {
      this.createdRuns = storeFactories().toolRuns(this.root);
    }
    return this.createdRuns;
  }

  /** Each upload tool's batch (several images, or a ZIP, in one go), created on first read like the runs. */
  get batches(): Record<BatchTool, BatchRunStore> {
    if (!this.createdBatches) {
      this.createdBatches = storeFactories().batchRuns(this.root);
    }
    return this.createdBatches;
  }

  /**
   * Forgets every run and quote (sign-out). The tools' status stays: it is the server's, the same for guests,
   * and the home page may have read it before the session check answered.
   */
  resetAll(): void {
    if (this.createdRuns) Object.values(this.createdRuns).forEach((run) => run.reset());
    if (this.createdBatches) Object.values(this.createdBatches).forEach((batch) => batch.reset());
    this.quotes.clear();
  }

  /** true / false once the status is known; null while unknown (the page does not block on it). */
  available(tool: JobName): boolean | null {
    return this.status ? this.status[tool].available : null;
  }

  /** The cached quote, or undefined until loadQuote has answered. */
  quote(tool: JobName, count = 1, factor?: number, model?: string): ToolQuote | undefined {
    return this.quotes.get(quoteKey(tool, count, factor, model));
  }

  /** The models live workers run for `tool` (empty until the status is known, or when the tool has no choice). */
  models(tool: JobName): string[] {
    return this.status?.[tool].models ?? [];
  }

  async loadStatus(): Promise<void> {
    this.statusLoading = true;
    try {
      const reply = await this.root.api.call(endpoints.tools.status);
      runInAction(() => (this.status = reply.payload));
    } catch {
      // The catalogue has told the user; the run button still works and the server has the last word.
    } finally {
      runInAction(() => (this.statusLoading = false));
    }
  }

  async loadQuote(tool: JobName, count = 1, factor?: number, model?: string): Promise<void> {
    const key = quoteKey(tool, count, factor, model);
    if (this.quotes.has(key)) return;
    try {
      const query = {
        tool,
        count,
        ...(factor !== undefined ? { factor } : {}),
        ...(model !== undefined ? { model: model as UpscaleModel } : {}),
      };
      const reply = await this.root.api.call(endpoints.tools.quote, { query });
      const quote = reply.payload;
      if (quote) runInAction(() => this.quotes.set(key, quote));
    } catch {
      // Without a quote the button shows no cost; the server still checks the balance.
    }
  }

  /** Fetches a result image and keeps it for `tool`'s page; false (with a toast) when it cannot be read. */
  async handOff(url: string, tool: JobName, name: string): Promise<boolean> {
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      runInAction(() => (this.handoff = { tool, file: new File([blob], name, { type: blob.type || 'image/png' }) }));
      return true;
    } catch {
      this.root.ui.error(this.root.t('client-tools.generate.followFailed'));
      return false;
    }
  }

  /** The image handed to `tool`, if any; forgotten once taken. */
  takeHandoff(tool: JobName): File | null {
    if (this.handoff?.tool !== tool) return null;
    const file = this.handoff.file;
    this.handoff = null;
    return file;
  }

  /** Prices change with settings and currency: forget the cached quotes. */
  clearQuotes(): void {
    this.quotes.clear();
  }
}
