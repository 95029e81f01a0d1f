// A page whose storage the browser refuses (the payment popup in an iframe on another site, where
// third-party storage is blocked): reading `localStorage` throws, which would stop the app before it
// renders. `local` is the browser's localStorage when it may be used, else one kept in memory for the
// page's life (nobody signs in there). Looked up on every call, so a stubbed global (tests) is seen.

export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, String(value));
    },
  };
}

/** The browser's storage when it may be used, else `fallback`. */
export function usableStorage(read: () => Storage, fallback: Storage): Storage {
  try {
    const s = read();
    void s.length;
    return s;
  } catch {
    return fallback;
  }
}

const memory = memoryStorage();
const pick = () => usableStorage(() => globalThis.localStorage, memory);

export const local = {
  getItem: (key: string) => pick().getItem(key),
  setItem: (key: string, value: string) => pick().setItem(key, value),
  removeItem: (key: string) => pick().removeItem(key),
};
