/** A periodic job of the API process (reconcilers, retention); `start` returns its stop function. */
export interface BackgroundTask {
  name: string;
  start(): () => Promise<void>;
}
