/** Helpers shared by the converters for values written as text by a scanner. */

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A number when the text is plain decimal digits, else the text as written (the validator
 * then names it), or null when there is none.
 */
export function numberOrText(text: string | undefined | null): number | string | null {
  if (text === undefined || text === null) return null;
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return DECIMAL.test(trimmed) ? Number(trimmed) : trimmed;
}

/** An empty or missing text as undefined, else the text trimmed. */
export function presentText(text: string | undefined | null): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** The protocols a service may have; scans of others (Nmap's `-sO`) give no service. */
export const SERVICE_PROTOCOLS: ReadonlySet<string> = new Set(['tcp', 'udp', 'sctp']);
