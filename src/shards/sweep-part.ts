/** A sweep shard's part: its points' sums, written as they come, for `merge`. */
import type { RunStateData } from '../results/metrics.js';
import type { WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { MAX_SHARDS } from './limits.js';
import { MAX_PART_BYTES, sealJson } from './part-check.js';
import type { SweepPointResult } from '../report/sweep.js';

/** A point of a sharded sweep, as its partial result holds it. */
export interface PartialPoint {
  index: number;
  params: SweepPointResult['params'];
  /** Every key (`writtenScenario`). */
  scenario: WrittenScenario;
  fingerprint: string;
  grid_step: number;
  state: RunStateData;
}

/**
 * The text of a sweep shard's part, built point by point, each point's JSON made as soon as it
 * is simulated; refused once it passes what `merge` reads (MAX_PART_BYTES), with the number of
 * shards that would fit.
 */
export class SweepPartText {
  private readonly pieces: string[] = [];
  private bytes = 0;
  constructor(private readonly shard: { index: number; count: number }, private readonly points: number) {}

  add(point: PartialPoint): void {
    const json = JSON.stringify(point);
    this.bytes += Buffer.byteLength(json) + 1;
    if (this.bytes > MAX_PART_BYTES - PART_HEAD_ROOM) {
      const done = this.pieces.length + 1;
      // A tenth to spare: points differ in size.
      const needed = Math.ceil((1.1 * this.shard.count * (this.bytes / done) * this.points) / (MAX_PART_BYTES - PART_HEAD_ROOM));
      throw new InputError({ source: `--shard ${this.shard.index}/${this.shard.count}` }, '',
        `the part passes ${MAX_PART_BYTES / 1024 / 1024} MiB, the most merge reads, at point ${done.toLocaleString('en-US')} of the ${this.points.toLocaleString('en-US')} in this shard`,
        `Split the sweep into more shards (about --shard i/${Math.min(needed, MAX_SHARDS)}), or vary fewer values.`);
    }
    this.pieces.push(json);
  }

  /** The sealed part: `head`, then the points. */
  text(head: object): string {
    const open = JSON.stringify({ ...head, points: [] }).slice(0, -2); // ends with "points":[
    return sealJson(`${open}${this.pieces.join(',')}]}`);
  }
}

/** Room left in a part for what precedes its points (the command, the keys varied). */
const PART_HEAD_ROOM = 1024 * 1024;

