/**
 * Promises kept by key, at most `max` of them (the oldest leaves first). A promise that fails is
 * forgotten, so the next call for its key tries again. Workers use it for what their cells share.
 */
export class PromiseCache<T> {
  private readonly entries = new Map<string, Promise<T>>();
  constructor(private readonly max = Number.POSITIVE_INFINITY) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.entries.get(key);
    if (!p) {
      p = make();
      this.entries.set(key, p);
      while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
      p.catch(() => this.entries.delete(key));
    }
    return p;
  }
}
