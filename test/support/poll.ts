/** Polls `get` until `ok` accepts what it gives (real events, no fixed sleeps); fails naming `what` and the last value. */
export async function until<T>(get: () => Promise<T> | T, ok: (v: T) => boolean, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: last seen ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
