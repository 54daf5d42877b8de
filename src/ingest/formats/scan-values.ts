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

/** The score of a severity word, for a finding that gives no CVSS score (Nuclei, Trivy). */
const SEVERITY_SCORES: Readonly<Record<string, number>> = {
  critical: 9.0,
  high: 7.0,
  medium: 4.0,
  low: 1.0,
  info: 0,
};

/** A severity word's score, any case; null for another word (Trivy's UNKNOWN). */
export function severityScore(severity: unknown): number | null {
  if (typeof severity !== 'string') return null;
  const key = severity.trim().toLowerCase();
  return Object.hasOwn(SEVERITY_SCORES, key) ? SEVERITY_SCORES[key] : null;
}

/** A vulnerability id as stored: one of the CVE form in upper case, whatever case it came in. */
export function vulnerabilityId(id: string): string {
  return /^cve-/i.test(id) ? id.toUpperCase() : id;
}

/**
 * A JSON value where text is expected: a string trimmed (undefined when empty), a number or
 * boolean as written, anything else undefined.
 */
export function jsonText(value: unknown): string | undefined {
  if (typeof value === 'string') return presentText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
