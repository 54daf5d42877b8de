import { describe, expect, it } from '@jest/globals';
import {
  CONVERT_BYTES_PER_TURN,
  convertBody,
  converterFor,
  openScannerBody,
  type ConvertedSlice,
} from './convert-body.js';
import { fixture } from './convert-fixtures.js';
import { CsvConverter } from './csv.converter.js';
import { chooseFormat } from './format-choice.js';
import { FormatError } from './format-error.js';
import { JsonConverter } from './json.converter.js';
import { XmlConverter } from './xml.converter.js';

async function slicesOf(
  body: Buffer,
  mediaType: string,
  sliceSize: number,
): Promise<ConvertedSlice[]> {
  const chunks = function* () {
    for (let start = 0; start < body.length; start += 100) yield body.subarray(start, start + 100);
  };
  const slices: ConvertedSlice[] = [];
  for await (const slice of convertBody(
    converterFor(chooseFormat(mediaType, undefined)!),
    chunks(),
    sliceSize,
  )) {
    slices.push(slice);
  }
  return slices;
}

describe('convertBody', () => {
  it('picks the converter by media type, parameters and case aside, and ?format=', () => {
    const converter = (mediaType: string, format?: string) =>
      converterFor(chooseFormat(mediaType, format)!);
    expect(converter('application/xml')).toBeInstanceOf(XmlConverter);
    expect(converter('Text/XML; charset=utf-8')).toBeInstanceOf(XmlConverter);
    expect(converter('text/csv')).toBeInstanceOf(CsvConverter);
    expect(chooseFormat('application/json', undefined)).toBeNull();
    for (const [mediaType, format] of [
      ['application/json', 'trivy'],
      ['application/json', 'masscan'],
      ['application/x-ndjson', 'nuclei'],
      ['application/json', 'nuclei'],
    ]) {
      expect(converter(mediaType, format)).toBeInstanceOf(JsonConverter);
      expect(converter(mediaType, format).format).toBe(format);
    }
    expect(converter('text/xml', 'masscan')).toBeInstanceOf(XmlConverter);
  });

  it('refuses an unknown format, one given twice, or a media type the format is never sent as', () => {
    expect(() => chooseFormat('application/json', 'json')).toThrow(
      'format must be one of nmap, nessus, csv, greenbone, masscan, nuclei, trivy',
    );
    expect(() => chooseFormat('application/json', ['trivy', 'nuclei'])).toThrow(
      'format must be given once',
    );
    expect(() => chooseFormat('text/csv', 'trivy')).toThrow(
      'format=trivy takes a body of type application/json, not text/csv',
    );
    expect(() => chooseFormat('application/x-ndjson', undefined)).toThrow(
      'an application/x-ndjson body needs ?format= to name its format (nuclei)',
    );
  });

  it("hands out slices of at most sliceSize items, the assets' then the relations', with their names", async () => {
    const slices = await slicesOf(fixture('nmap/hop-names.xml'), 'text/xml', 1);
    expect(slices.map(({ part, paths }) => [part, paths])).toEqual([
      ['assets', ['hosts[0]']],
      ['assets', ['hosts[0].trace.hop[0]']],
      ['relations', ['hosts[0].trace.hop[1]']],
    ]);
    expect(slices[2].items).toEqual([
      {
        sourceAssetIp: '192.0.2.2',
        targetAssetIp: '198.51.100.10',
        type: 'route',
        direction: 'mono',
      },
    ]);
  });

  it('feeds a body read whole in pieces, handing its first slice out before the rest is read', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `host-${i},192.0.2.${i % 256}`);
    const body = Buffer.from(`name,ip\n${rows.join('\n')}\n`);
    expect(body.length).toBeGreaterThan(2 * CONVERT_BYTES_PER_TURN);
    const converter = new CsvConverter();
    const written: number[] = [];
    const write = converter.write.bind(converter);
    converter.write = (chunk) => {
      written.push(chunk.length);
      return write(chunk);
    };
    const slices = convertBody(converter, [body], 100);
    await slices.next();
    expect(written).toEqual([CONVERT_BYTES_PER_TURN]);
    let items = 100;
    for await (const slice of slices) items += slice.items.length;
    expect(items).toBe(10_000);
    expect(written.reduce((sum, length) => sum + length, 0)).toBe(body.length);
  });

  it('fills each slice up to sliceSize across chunks', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `host-${i},192.0.2.${i}`);
    const body = Buffer.from(`name,ip\n${rows.join('\n')}\n`);
    const slices = await slicesOf(body, 'text/csv', 10);
    expect(slices.map((slice) => slice.items.length)).toEqual([10, 10, 5]);
    expect(slices[2].paths).toEqual(['line 22', 'line 23', 'line 24', 'line 25', 'line 26']);
    expect(slices[2].items[4]).toEqual({ name: 'host-24', ip: '192.0.2.24' });
  });

  describe('openScannerBody', () => {
    it('knows the format before any slice is taken, and hands every item out after', async () => {
      // A long comment first: the root comes after the first piece.
      const body = Buffer.concat([
        Buffer.from(`<!--${'x'.repeat(CONVERT_BYTES_PER_TURN)}-->`),
        fixture('nmap/hop-names.xml').subarray('<?xml version="1.0" encoding="UTF-8"?>'.length),
      ]);
      const { format, slices } = await openScannerBody(
        converterFor(chooseFormat('text/xml', undefined)!),
        body,
        10,
      );
      expect(format).toBe('nmap');
      const paths: string[] = [];
      for await (const slice of slices) paths.push(...slice.paths);
      expect(paths).toEqual(['hosts[0]', 'hosts[0].trace.hop[0]', 'hosts[0].trace.hop[1]']);
    });

    it('refuses a body without a root element', async () => {
      for (const body of ['', '<?xml version="1.0"?>', '<!-- nothing -->']) {
        await expect(
          openScannerBody(
            converterFor(chooseFormat('application/xml', undefined)!),
            Buffer.from(body),
            10,
          ),
        ).rejects.toThrow(FormatError);
      }
    });

    it('knows a CSV body at once', async () => {
      const { format } = await openScannerBody(
        converterFor(chooseFormat('text/csv', undefined)!),
        Buffer.alloc(0),
        10,
      );
      expect(format).toBe('csv');
    });
  });
});
