import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConvertedItem, ScannerConverter } from './converted-item.js';

/** A file of test/fixtures, as bytes. */
export function fixture(path: string): Buffer {
  return readFileSync(join(process.cwd(), 'test', 'fixtures', path));
}

/** Every item of a body fed to the converter in chunks of `chunkSize` bytes. */
export function convertAll(
  converter: ScannerConverter,
  body: Uint8Array | string,
  chunkSize = 4096,
): ConvertedItem[] {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const items: ConvertedItem[] = [];
  for (let start = 0; start < bytes.length; start += chunkSize) {
    items.push(...converter.write(bytes.subarray(start, start + chunkSize)));
  }
  items.push(...converter.end());
  return items;
}

/** A service as the converters give it: a port and protocol, the rest unnamed unless given. */
export function service(port: number, protocol: string, name: string | null = null) {
  return { port, protocol, name, product: null, version: null };
}
