export class HealthResponse {
  status: 'ok';
  message: string;
  version: string;
  /** Seconds since the process started. */
  uptime: number;
}
