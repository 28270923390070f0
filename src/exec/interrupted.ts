/** Thrown when a run is stopped by Ctrl-C (SIGINT) before it finished. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}
