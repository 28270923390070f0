/**
 * The scenario's enumerations, one `as const` list each, in the order the schema lists them.
 * The types, the schema's `enum:` arrays and every per-value table derive from these lists,
 * so a value added here is a compile error wherever it is not handled yet (tables typed
 * `Record<T, ...>`, switches ending in `assertNever`), never a silent fallback.
 */

/** What an idempotency key identifies (docs/model.md's table). */
export const SCOPES = ['none', 'attempt', 'call', 'intent', 'business', 'text'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Each scope's key name in the action timeline (`call:3.1`, `order:3`); scope none sends no
 * key, so its name is never shown.
 */
export const SCOPE_KEY_NAME: Record<Scope, string> = {
  none: 'none', attempt: 'attempt', call: 'call', intent: 'intent', business: 'order', text: 'text',
};

/** How a new key is claimed (`idempotency.claim`). */
export const CLAIMS = ['atomic', 'check_then_act'] as const;
export type Claim = (typeof CLAIMS)[number];

/** What the payload fingerprint covers (`idempotency.fingerprint`). */
export const FINGERPRINTS = ['full', 'business', 'none'] as const;
export type Fingerprint = (typeof FINGERPRINTS)[number];

/** The backoff's jitter (`client.backoff.jitter`). */
export const JITTERS = ['full', 'equal', 'none'] as const;
export type Jitter = (typeof JITTERS)[number];

/** What a 5xx does to the key (`idempotency.on_error`). */
export const ON_ERRORS = ['release', 'store'] as const;
export type OnError = (typeof ON_ERRORS)[number];

/** What the server does with an attempt that arrives while the key store is down (`idempotency.on_store_down`). */
export const ON_STORE_DOWNS = ['fail_closed', 'fail_open'] as const;
export type OnStoreDown = (typeof ON_STORE_DOWNS)[number];

/** How `expect:` judges a threshold: on the estimate, or on its whole 95% interval. */
export const CONFIDENCES = ['none', 'ci95'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** The default branch of an exhaustive switch: a compile error when a case is missing. */
export function assertNever(value: never): never {
  throw new Error(`unhandled value ${JSON.stringify(value)}`);
}
