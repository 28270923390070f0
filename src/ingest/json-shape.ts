/**
 * The shape of a JSON text, counted in one pass before JSON.parse builds it (strings skipped): how
 * deep it nests and how many objects and arrays it holds. JSON.parse of a small text can build far
 * more than the text (`[[],[],...]` makes an array of some 50 bytes of heap for every 3 of text,
 * and `[[[...]]]` nests as deep as the text is long), so readers of untrusted JSON refuse by this
 * first: OTLP exports (otlp-json.ts) and parts of a sharded run (shards/partial.ts).
 */

/** What is wrong with the text's shape under the limits, with the line it is on; undefined when it is within them. */
export function jsonShapeProblem(text: string, maxDepth: number, maxContainers: number): { problem: string; line: number } | undefined {
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: to its closing quote, past escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 123 || c === 91) {
      containers++;
      if (++depth > maxDepth || containers > maxContainers) {
        const problem = depth > maxDepth ? `nests deeper than ${maxDepth} levels` : `holds more than ${maxContainers.toLocaleString('en-US')} objects and arrays`;
        return { problem, line: text.slice(0, i).split('\n').length };
      }
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return undefined;
}
