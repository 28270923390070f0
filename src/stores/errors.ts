/** A problem with a key store that a person can fix: a malformed URL, a store that cannot be reached or used. */
export class StoreError extends Error {
  constructor(
    /** The URL as given, password hidden. */
    readonly url: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${url}: ${problem}. ${fix}`);
    this.name = 'StoreError';
  }
}

/** The URL with any password replaced by `****`, for messages and reports. */
export function redactUrl(text: string): string {
  try {
    const u = new URL(text);
    if (u.password === '') return text;
    u.password = '****';
    return u.toString();
  } catch {
    return text.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:****@');
  }
}

/** A driver's error message, with the errno code when the message lacks it. */
export function reasonOf(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  const message = typeof err?.message === 'string' && err.message !== '' ? err.message : String(e);
  return typeof err?.code === 'string' && !message.includes(err.code) ? `${message}, ${err.code}` : message;
}
