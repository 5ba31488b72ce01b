/**
 * A value read at most once per `ttlMs`: settings are read on every API request but change rarely;
 * another panel instance sees a change within the TTL. `peek` answers without a promise while fresh;
 * `forget` drops the value, so this instance reads its own change at once.
 */
export interface Cached<T> {
  (): Promise<T>;
  peek: () => T | undefined;
  forget: () => void;
}

export function cached<T>(ttlMs: number, load: () => Promise<T>): Cached<T> {
  let value: T | undefined;
  let pending: Promise<T> | null = null;
  let at = 0;
  // Bumped by forget: a read that started before it must not store its (older) answer.
  let generation = 0;
  const get = (() => {
    if (value !== undefined && Date.now() - at <= ttlMs) return Promise.resolve(value);
    const started = generation;
    pending ??= load().then(
      (v) => {
        if (started === generation) {
          value = v;
          at = Date.now();
        }
        pending = null;
        return v;
      },
      (e: unknown) => {
        pending = null;
        throw e;
      },
    );
    return pending;
  }) as Cached<T>;
  get.peek = () => (value !== undefined && Date.now() - at <= ttlMs ? value : undefined);
  get.forget = () => {
    generation += 1;
    value = undefined;
    pending = null;
  };
  return get;
}
