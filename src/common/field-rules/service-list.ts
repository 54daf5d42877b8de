import type { EntryList } from './entry-list.js';
import type { ServiceProtocol } from './inventory-values.js';
import { SERVICE_FIELDS } from './inventory-fields.js';

/** An entry of an asset's `services` once checked: absent optional values read as null. */
export interface ServiceValues {
  port: number;
  protocol: ServiceProtocol;
  name: string | null;
  product: string | null;
  version: string | null;
}

/** An asset's `services`: at most one entry per (port, protocol). */
export const SERVICE_LIST: EntryList<ServiceValues> = {
  fields: SERVICE_FIELDS,
  key: (service) => `${service.port}/${service.protocol}`,
  repeats: (entryPath, firstPath, key) =>
    `${entryPath} repeats the port and protocol of ${firstPath} (${key})`,
};
