/**
 * `sweep --format json` (and `merge --json`): the run's facts, then every point's params and
 * metrics, each point's text written as it finishes (sweep-stream.ts). The text is
 * JSON.stringify's with an indent of 2, piece by piece: the fields before `points`, each point
 * two levels in, then the close. With --find, the answers come before the points and need every
 * point: the points' text waits in the sink's spool meanwhile, and the answers are read from
 * slim points (the --find readings alone).
 */
import { contractVersion } from '../model/capacity.js';
import type { FindCondition } from '../sweeps/find.js';
import { findAnswers, found } from './sweep-find.js';
import { shownFields, slimPoint, wholeText, type PromptWriter, type SweepHead, type SweepSink } from './sweep-stream.js';
import type { SweepPointResult, SweepReport } from './sweep.js';

/** 12 significant digits: no float noise in spreadsheets. */
const round = (x: number) => Number(x.toPrecision(12));
const rounded = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? round(v) : v);

/** The text before the first point: every field, `points` last, its array opened. */
function opening(head: SweepHead, find: readonly FindCondition[] | undefined, points: readonly SweepPointResult[]): string {
  const text = JSON.stringify({
    tool: 'idem-sim', version: head.version, model: contractVersion(head.columns.coupled || head.columns.reports('deliveries_per_action')), time_unit: 'ms', replay: head.replay, scenario: head.scenario, seed: head.seed,
    vary: head.paths,
    ...(find ? { find: { conditions: find.map((c) => c.text), key: head.paths[0], answers: findAnswers({ ...head, points: [...points] }, find) } } : {}),
    points: [],
  }, rounded, 2);
  return `${text.slice(0, -'[]\n}'.length)}[`;
}

/** A point as an element of `points`: after a comma but for the first, two levels in. */
const element = (pt: object, first: boolean): string => `${first ? '' : ','}\n${JSON.stringify(pt, rounded, 2).replace(/^/gm, '    ')}`;

/** The close, after `any` points or none. */
const closing = (any: boolean): string => `${any ? '\n  ' : ''}]\n}\n`;

/** The JSON report, written to `sink` a point at a time. */
export function jsonWriter(head: SweepHead, sink: SweepSink): PromptWriter {
  const find = head.find?.length ? head.find : undefined;
  if (find) return answeredWriter(head, find, sink);
  let first = true;
  sink.write(opening(head, undefined, []));
  return {
    point: (pt) => { sink.write(element(pt, first)); first = false; },
    end: () => sink.write(closing(!first)),
  };
}

/** With --find: the points' text spooled, and slim points kept for the answers written before it. */
function answeredWriter(head: SweepHead, find: readonly FindCondition[], sink: SweepSink): PromptWriter {
  const spool = sink.spool();
  const fields = shownFields('duplicates_per_1000', find);
  const kept: SweepPointResult[] = [];
  return {
    point: (pt) => {
      spool.write(element({ ...pt, found: found(pt, find) }, kept.length === 0));
      kept.push(slimPoint(pt, fields));
    },
    end: () => {
      sink.write(opening(head, find, kept));
      spool.drain((text) => sink.write(text));
      sink.write(closing(kept.length > 0));
    },
  };
}

export function renderSweepJson(r: SweepReport): string {
  return wholeText(r, jsonWriter);
}
