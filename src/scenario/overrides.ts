/** `--set key.path=value` and `--actions N` as the scenario's overrides, and key paths (`a.b[0].c`) as the parser walks them. */
import { InputError } from './errors.js';
import type { Override } from './parse.js';

/** `--set a.b=c` and `--actions N` as overrides, validated later with the scenario. */
export function parseOverrides(opts: { set?: readonly string[] | undefined; actions?: string | undefined }): Override[] {
  const overrides = (opts.set ?? []).map((arg): Override => {
    const eq = arg.indexOf('=');
    const path = eq > 0 ? parseKeyPath(arg.slice(0, eq)) : undefined;
    if (!path) {
      throw new InputError({ source: `--set ${arg}` }, '', 'expected key.path=value',
        'Write it as, for example, --set idempotency.scope=intent, --set client.timeout=2s or --set service.latency.components[0].weight=3.');
    }
    return { path, text: arg.slice(eq + 1), option: `--set ${arg}` };
  });
  if (opts.actions !== undefined) overrides.push({ path: ['actions'], text: opts.actions, option: `--actions ${opts.actions}` });
  return overrides;
}

/** `a.b[0].c` into ['a', 'b', 0, 'c']; undefined when malformed. */
export function parseKeyPath(text: string): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  for (const part of text.trim().split('.')) {
    const m = /^([A-Za-z_$][\w$]*)((?:\[\d+\])*)$/.exec(part.trim());
    if (!m) return undefined;
    path.push(m[1] as string);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) path.push(Number(idx[1]));
  }
  return path;
}
