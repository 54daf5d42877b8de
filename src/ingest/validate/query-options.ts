import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import { OPTION_KEYS } from './validate-payload.js';

const FLAGS = new Set(['deleteStale', 'dryRun']);
/** The parameter naming the body's format (formats/format-choice.ts): not one of the run's options. */
const FORMAT_PARAMETER = 'format';
const DIGITS = /^\d+$/;

function fail(message: string): never {
  throw new InvalidInputError(message);
}

/**
 * A scanner body's options, from the query (`?source=nmap-dmz&dryRun=true&matchBy=id`), typed
 * as the body's `options` would hold them: flags `true` or `false`, `maxDeletions` and `maxFixes` digits,
 * `matchBy` a comma-separated list. What cannot be typed is refused here, naming the
 * parameter; the values are then checked by the rules of the body's options. `format` is
 * left out.
 */
export function optionsFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === FORMAT_PARAMETER) continue;
    if (!OPTION_KEYS.has(key)) fail(`${key} is not an accepted query parameter`);
    if (typeof value !== 'string') fail(`${key} must be given once`);
    if (FLAGS.has(key)) {
      if (value !== 'true' && value !== 'false') fail(`${key} must be true or false`);
      options[key] = value === 'true';
    } else if (key === 'maxDeletions' || key === 'maxFixes') {
      options[key] = DIGITS.test(value) ? Number(value) : value;
    } else if (key === 'matchBy') {
      options[key] = value.split(',');
    } else {
      options[key] = value;
    }
  }
  return options;
}

/** A JSON body carries its options itself: any query parameter is refused, naming it. */
export function refuseQuery(query: Record<string, unknown>): void {
  const [key] = Object.keys(query);
  if (key !== undefined) {
    fail(
      `${key} is not accepted as a query parameter with a JSON body: options go in the body's options`,
    );
  }
}
