import { describe, expect, it } from '@jest/globals';
import { converterFor, openScannerBody, type ConvertedSlice } from '../formats/convert-body.js';
import { fixture } from '../formats/convert-fixtures.js';
import { chooseFormat } from '../formats/format-choice.js';
import { FormatError } from '../formats/format-error.js';
import { openScannerInWorker } from './scanner-worker.js';

async function all(slices: AsyncIterable<ConvertedSlice>): Promise<ConvertedSlice[]> {
  const taken: ConvertedSlice[] = [];
  for await (const slice of slices) taken.push(slice);
  return taken;
}

describe('openScannerInWorker', () => {
  it('gives the format, then the slices the converter gives on the main thread', async () => {
    for (const [file, mediaType, format] of [
      ['nmap/routed-os-trace.xml', 'application/xml', 'nmap'],
      ['nessus/dmz-weekly.nessus', 'text/xml', 'nessus'],
    ] as const) {
      const here = await openScannerBody(
        converterFor(chooseFormat(mediaType, undefined)!),
        fixture(file),
        2,
      );
      const inWorker = await openScannerInWorker(
        chooseFormat(mediaType, undefined)!,
        fixture(file),
        2,
      );
      expect(inWorker.format).toBe(format);
      const slices = await all(inWorker.slices);
      expect(slices.length).toBeGreaterThan(1);
      expect(slices).toEqual(await all(here.slices));
    }
  });

  it('converts a CSV table, its items named by line', async () => {
    const body = Buffer.from('name,ip\nweb,10.0.0.1\n"db, main",10.0.0.2\n');
    const opened = await openScannerInWorker(chooseFormat('text/csv', undefined)!, body, 10);
    expect(opened.format).toBe('csv');
    await expect(all(opened.slices)).resolves.toEqual([
      {
        part: 'assets',
        items: [
          { name: 'web', ip: '10.0.0.1' },
          { name: 'db, main', ip: '10.0.0.2' },
        ],
        paths: ['line 2', 'line 3'],
      },
    ]);
  });

  it('refuses a body with FormatError, at once or from the slices as the trouble comes', async () => {
    await expect(
      openScannerInWorker(chooseFormat('application/xml', undefined)!, Buffer.from('<scan/>'), 10),
    ).rejects.toThrow(
      new FormatError(
        'the XML body\'s root element is <scan>: expected <nmaprun> (Nmap), <NessusClientData_v2> (Nessus), <report> or <get_reports_response> (Greenbone), <nmaprun scanner="masscan"> (masscan)',
      ),
    );
    // Past the first 64 KiB, which tell the format: the error comes with the slices.
    const scan = fixture('nmap/routed-os-trace.xml').toString();
    const broken = Buffer.from(
      scan.replace('</nmaprun>', `<!--${'x'.repeat(70_000)}--></wrong></nmaprun>`),
    );
    const opened = await openScannerInWorker(
      chooseFormat('application/xml', undefined)!,
      broken,
      10,
    );
    await expect(all(opened.slices)).rejects.toBeInstanceOf(FormatError);
  });
});
