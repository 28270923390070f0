/** The check of a latency form's keys in a part's scenario, each by its kind (model/params.ts). */
import type { LatencyForm } from '../model/latency.js';
import type { Param, Params } from '../model/params.js';
import type { PartChecker } from './part-check.js';

/** Every key of a distribution of `form` (not a mixture), as its kind is written. */
export function formValues(c: PartChecker, o: Readonly<Record<string, unknown>>, field: string, form: Pick<LatencyForm<{ dist: string }>, 'keys'> & { readonly required: readonly string[] }): void {
  for (const [k, p] of Object.entries(form.keys as Params)) formValue(c, o[k], `${field}.${k}`, p, form.required.includes(k));
}

/**
 * A key as its kind is written: a number, a text (null where the key has no default and may be
 * left out), or a list of mappings (a histogram's buckets), each of its keys by its kind.
 */
function formValue(c: PartChecker, v: unknown, field: string, p: Param, required: boolean): void {
  if (v === null && !required && !('default' in p && p.default !== undefined)) return;
  if (p.kind === 'text' || p.kind === 'choice') c.string(v, field);
  else if (p.kind === 'list') {
    c.array(v, field, 0, p.max).forEach((item, i) => {
      const o = c.object(item, `${field}[${i}]`, Object.keys(p.of.params));
      for (const [k, q] of Object.entries(p.of.params)) formValue(c, o[k], `${field}[${i}].${k}`, q, true);
    });
  } else c.number(v, field);
}
