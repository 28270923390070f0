/**
 * A part's scenario held to what a scenario file may say (model/shape.ts): every number in the
 * range of its declaration, every choice one of its values, every name of its pattern, every list
 * within its length, and the rules of the time keys (scenario/time-checks.ts), of the capacity
 * keys (scenario/capacity-checks.ts) and of the trigger's (scenario/trigger-checks.ts). A part's
 * digest is a plain SHA-256 anyone can recompute, so a scenario edited in a resealed part must
 * fail here (an alert's metric `toString`, an incident named `__proto__`, `for: 1e308`, 1,000
 * alerts).
 */
import { MAX_DURATION_MS } from '../model/limits.js';
import type { Param } from '../model/params.js';
import { SCENARIO_SHAPE } from '../model/shape.js';
import type { WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { PRINTABLE_TEXT } from '../scenario/printable.js';
import { checkCapacity } from '../scenario/capacity-checks.js';
import { checkTime } from '../scenario/time-checks.js';
import { checkTrigger } from '../scenario/trigger-checks.js';
import type { PartChecker } from './part-check.js';

type Raw = Record<string, unknown>;
const join = (field: string, key: string) => (field === '' ? key : `${field}.${key}`);

/** `s` (already of the right types) within its shape; fails on `c`, naming the field. */
export function checkScenarioShape(c: PartChecker, s: WrittenScenario, field: string): void {
  for (const [k, p] of Object.entries(SCENARIO_SHAPE.params)) inShape(c, (s as unknown as Raw)[k], p, join(field, k));
  try {
    checkTime({}, s, () => ({ source: field }));
    checkCapacity(s, () => ({ source: field }));
    checkTrigger(s, () => ({ source: field }));
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    c.fail(e.keyPath ? join(field, e.keyPath) : field, e.problem);
  }
}

function inShape(c: PartChecker, v: unknown, p: Param, field: string): void {
  switch (p.kind) {
    case 'probability': c.number(v, field, 0, 1); return;
    case 'count': c.int(v, field, p.min, p.max ?? Number.MAX_SAFE_INTEGER); return;
    case 'number': c.number(v, field, p.min, p.max); return;
    case 'duration': c.number(v, field, 0, MAX_DURATION_MS); return;
    case 'optional_duration': if (v !== null) c.number(v, field, 0, MAX_DURATION_MS); return;
    case 'durations': c.array(v, field, p.min, p.max).forEach((d, i) => c.number(d, `${field}[${i}]`, 0, MAX_DURATION_MS)); return;
    case 'count_or_unbounded': if (v !== null) c.int(v, field, p.min, p.max); return;
    case 'range': {
      const r = v as { min: unknown; max: unknown };
      const min = c.number(r.min, join(field, 'min'), 0, MAX_DURATION_MS);
      c.number(r.max, join(field, 'max'), min, MAX_DURATION_MS);
      return;
    }
    case 'choice': if (!p.values.includes(v as string)) c.fail(field, `is not one of ${p.values.join(', ')}`); return;
    case 'text': {
      const ok = p.pattern ? new RegExp(p.pattern, 'u').test(v as string) : PRINTABLE_TEXT.test(v as string);
      if (!ok) c.fail(field, `is not ${p.description}`);
      return;
    }
    case 'override': if (v !== null) inShape(c, v, p.of, field); return;
    case 'section': for (const [k, q] of Object.entries(p.params)) inShape(c, (v as Raw)[k], q, join(field, k)); return;
    case 'optional': if (v !== null) for (const [k, q] of Object.entries(p.params)) inShape(c, (v as Raw)[k], q, join(field, k)); return;
    case 'list': {
      const items = v as unknown[];
      if (items.length > p.max) c.fail(field, `holds ${items.length} entries, more than the ${p.max} a scenario may have`);
      items.forEach((x, i) => inShape(c, x, p.of, `${field}[${i}]`));
      return;
    }
    // Read by PartChecker's own walk of the latency forms; a flag's type is all there is to it.
    case 'latency': case 'components': case 'flag': return;
    default: {
      const unknown: never = p;
      throw new TypeError(`a parameter kind the part checker does not know: ${JSON.stringify(unknown)}`);
    }
  }
}
