import { isISO8601, ValidateBy } from 'class-validator';

/** An ISO 8601 timestamp later than now. */
export const IsFutureTimestamp = () =>
  ValidateBy({
    name: 'isFutureTimestamp',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        isISO8601(value, { strict: true }) &&
        Date.parse(value) > Date.now(),
      defaultMessage: () => '$property must be an ISO 8601 timestamp in the future',
    },
  });
