import { ValidateBy } from 'class-validator';

/** The column's width: a longer list could not be stored. */
export const MAX_PORT_LIST_LENGTH = 1000;

// Digits only, no sign, no leading zero, no spaces: one canonical spelling per port.
const ITEM = /^([1-9]\d{0,4})(?:-([1-9]\d{0,4}))?$/;
const MAX_PORT = 65535;

function isPortItem(item: string): boolean {
  const match = ITEM.exec(item);
  if (!match) return false;
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  return start <= MAX_PORT && end <= MAX_PORT && start <= end;
}

/** Comma-separated ports or ranges of ports, each from 1 to 65535: `443`, `22,8000-8080`. */
export function isPortList(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value.length <= MAX_PORT_LIST_LENGTH &&
    value.split(',').every(isPortItem)
  );
}

export const IsPortList = () =>
  ValidateBy({
    name: 'isPortList',
    validator: {
      validate: isPortList,
      defaultMessage: () =>
        `$property must be comma-separated ports or port ranges from 1 to 65535, such as 80,443,8000-8080 (at most ${MAX_PORT_LIST_LENGTH} characters)`,
    },
  });
