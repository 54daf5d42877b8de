/** The API's shapes the UI reads (see docs/api.md). */
import type { DeliveryStatus, WebhookFilter } from '../../src/database/outbox/event-types';

export type Role = 'viewer' | 'editor' | 'admin';

export type Scope = 'read' | 'write' | 'ingest' | 'admin';

/** The scopes each role allows a key, in the API's order. */
export const ROLE_SCOPES: Record<Role, Scope[]> = {
  viewer: ['read'],
  editor: ['read', 'write', 'ingest'],
  admin: ['read', 'write', 'ingest', 'admin'],
};

export interface User {
  id: string;
  /** null for a service account. */
  email: string | null;
  name: string;
  role: Role;
  kind: 'person' | 'service';
  createdAt: string;
  updatedAt: string;
}

export interface Vulnerability {
  id: string;
  score: number | null;
  summary: string | null;
  publishedDate: string | null;
}

export interface Service {
  port: number;
  protocol: string;
  name: string | null;
  product: string | null;
  version: string | null;
}

export interface Asset {
  id: string;
  name: string;
  ip: string | null;
  addresses: string[];
  macAddresses: string[];
  hostnames: string[];
  type: string | null;
  vendor: string | null;
  model: string | null;
  risk_score: number | null;
  site: string | null;
  os_version: string | null;
  /** Kept as given; `internet` marks an asset facing the internet. */
  tags: string[];
  source: string | null;
  vulnerabilities: Vulnerability[];
  services: Service[];
  origin: 'manual' | 'ingest';
  sources: string[];
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Relation {
  id: string;
  sourceAssetId: string;
  targetAssetId: string;
  type: string;
  direction: 'bi' | 'mono';
  protocol: string | null;
  toPorts: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DiagramContent {
  nodes?: { assetId: string; x: number; y: number }[];
  edges?: { relationId: string }[];
}

export interface Diagram {
  id: string;
  name: string;
  description: string | null;
  visibility: 'private' | 'public';
  ownerId: string;
  content?: DiagramContent;
  createdAt: string;
  updatedAt: string;
}

export interface Actor {
  userId: string | null;
  email: string | null;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
}

export interface Run {
  id: string;
  status: 'running' | 'succeeded' | 'rejected' | 'failed';
  dryRun: boolean;
  format: string;
  mode: string;
  source: string | null;
  deleteStale: boolean;
  actor: Actor;
  requestId: string;
  bodyBytes: number;
  startedAt: string;
  finishedAt: string | null;
  stats: Record<string, number | string> | null;
  error: string | null;
}

export interface Feed {
  name: string;
  assets: number;
  lastRunAt: string | null;
  lastSucceededAt: string | null;
  lastStatus: Run['status'] | null;
  expectedEverySeconds: number | null;
  late: boolean;
}

// The server's own list and types: a file without imports, bundled into the UI as it is.
export { EVENT_TYPES } from '../../src/database/outbox/event-types';
export type { WebhookFilter };

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  filter: WebhookFilter | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** In the creation's answer only. */
  secret?: string;
}

export interface Delivery {
  id: string;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  nextAttemptAt: string | null;
}

export interface Change {
  id: string;
  time: string;
  action: 'create' | 'update' | 'delete';
  objectType: string;
  objectId: string;
  actor: Actor;
  requestId: string | null;
  runId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'none';
export type FindingStatus = 'open' | 'fixed' | 'false_positive' | 'accepted';

/** One vulnerability on one asset, from its first report until the asset is deleted. */
export interface Finding {
  id: string;
  assetId: string;
  vulnId: string;
  score: number | null;
  severity: Severity;
  summary: string | null;
  publishedDate: string | null;
  status: FindingStatus;
  sources: string[];
  firstSeenAt: string;
  lastSeenAt: string;
  fixedAt: string | null;
  reopenedAt: string | null;
  reopenCount: number;
  reason: string | null;
  acceptedUntil: string | null;
  triagedBy: Actor | null;
  dueAt: string | null;
  overdue: boolean;
}

export type SeverityCounts = Record<Severity, number>;

export interface FindingSummary {
  open: SeverityCounts;
  overdue: SeverityCounts;
  accepted: number;
  falsePositive: number;
  fixed: number;
  openedLast30Days: number;
  fixedLast30Days: number;
}

/** A triage: `open` undoes one (and takes nothing else). */
export type Triage =
  | { status: 'false_positive'; reason: string }
  | { status: 'accepted'; reason: string; acceptedUntil: string }
  | { status: 'open' };

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  sources: string[] | null;
  allowedCidrs: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  key?: string;
}

export interface GraphAnswer {
  assets: Asset[];
  relations: Relation[];
}

/** An answer >= 400, or no answer: `message` is the sentence to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'asset-map.token';

/** The session token lives in this tab only: closing it signs out. */
export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set(token: string | null): void {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  },
};

let onUnauthorized: () => void = () => {};
/** Called when a signed-in request gets a 401 (expired token, password changed elsewhere). */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export interface Answer<T> {
  body: T;
  headers: Headers;
}

/** The headers of a signed-in request: the session's token goes in Authorization, never in a URL. */
function signedHeaders(accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept };
  const token = session.token;
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

/** The sentence of an answer >= 400 (its `{"error"}`, else its status); a 401 signs out. */
function failure(response: Response, text: string, path: string): ApiError {
  let error: unknown;
  try {
    error = (JSON.parse(text) as { error?: unknown } | null)?.error;
  } catch {
    // Not JSON: the status speaks instead.
  }
  const message =
    typeof error === 'string'
      ? error
      : `The service answered ${response.status} ${response.statusText}`;
  if (response.status === 401 && session.token && path !== '/api/auth/login') onUnauthorized();
  return new ApiError(response.status, message);
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const headers = signedHeaders('application/json');
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check the connection and try again.');
  }
  const text = await response.text();
  if (!response.ok) throw failure(response, text, path);
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return { body: parsed as T, headers: response.headers };
}

/**
 * Saves the attachment a GET of `path` answers (an export) as a file, under the name its
 * Content-Disposition gives (else `fallbackName`). Fetched with the token in its header, as
 * every request is, then handed to the browser as a file from memory.
 */
export async function download(path: string, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { headers: signedHeaders('*/*') });
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check the connection and try again.');
  }
  if (!response.ok) throw failure(response, await response.text(), path);
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    // The service closes the connection when it cannot finish an export it has started.
    throw new ApiError(0, 'The export was cut short before its end. Try again.');
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Once the browser has taken the file: revoking at once may cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const get = async <T>(path: string): Promise<T> => (await request<T>('GET', path)).body;
export const post = async <T>(path: string, body?: unknown): Promise<T> =>
  (await request<T>('POST', path, body ?? {})).body;
export const put = async <T>(path: string, body: unknown): Promise<T> =>
  (await request<T>('PUT', path, body)).body;
export const patch = async <T>(path: string, body: unknown): Promise<T> =>
  (await request<T>('PATCH', path, body)).body;
export const del = async (path: string): Promise<void> => {
  await request('DELETE', path);
};

/** A query string of the values that are set. */
/** A query string; a list is the parameter repeated, once per value (`tag=a&tag=b`). */
export function query(
  params: Record<string, string | number | string[] | undefined | null>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      for (const item of value) if (item !== '') search.append(key, item);
    } else if (value !== undefined && value !== null && value !== '') {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export const enc = encodeURIComponent;

/** The values of a list typed as text, separated by white space (tags never hold any). */
export const spacedValues = (text: string): string[] =>
  text.split(/\s+/).filter((value) => value !== '');

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
