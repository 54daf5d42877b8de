import { describe, expect, it } from '@jest/globals';
import { csvText } from '../../common/export/export-text.js';
import { convertAll } from './convert-fixtures.js';
import { CsvConverter } from './csv.converter.js';
import { FormatError } from './format-error.js';

const convert = (body: Uint8Array | string, chunkSize?: number) =>
  convertAll(new CsvConverter(), body, chunkSize);

const refusal = (body: Uint8Array | string) => {
  try {
    convert(body, 5);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return (error as Error).message;
  }
  throw new Error('the body was accepted');
};

describe('CSV asset tables', () => {
  it('turns each row into an asset item named by its line; an empty cell leaves the field out', () => {
    const body = 'name,ip,type,risk_score,site\nfw-1,192.0.2.1,firewall,40,paris\nsw-2,,switch,,\n';
    expect(convert(body)).toEqual([
      {
        part: 'assets',
        path: 'line 2',
        value: { name: 'fw-1', ip: '192.0.2.1', type: 'firewall', risk_score: 40, site: 'paris' },
      },
      { part: 'assets', path: 'line 3', value: { name: 'sw-2', type: 'switch' } },
    ]);
  });

  it('reads the identity lists, their values separated by spaces', () => {
    const body =
      'name,addresses,macAddresses,hostnames\nweb,10.0.0.1  fe80::1,AA:BB:CC:DD:EE:FF,web web.example\n';
    expect(convert(body)).toEqual([
      {
        part: 'assets',
        path: 'line 2',
        value: {
          name: 'web',
          addresses: ['10.0.0.1', 'fe80::1'],
          macAddresses: ['AA:BB:CC:DD:EE:FF'],
          hostnames: ['web', 'web.example'],
        },
      },
    ]);
  });

  it('takes every asset field, in any order, a BOM and CRLF line ends', () => {
    const body =
      '\ufeffos_version,model,vendor,site,risk_score,type,ip,name,id\r\nIOS-XE 17.9,C9300,Cisco,lyon,7,switch,2001:db8::1,core,sw-core\r\n';
    expect(convert(body, 1)).toEqual([
      {
        part: 'assets',
        path: 'line 2',
        value: {
          os_version: 'IOS-XE 17.9',
          model: 'C9300',
          vendor: 'Cisco',
          site: 'lyon',
          risk_score: 7,
          type: 'switch',
          ip: '2001:db8::1',
          name: 'core',
          id: 'sw-core',
        },
      },
    ]);
  });

  it('reads quoted fields (commas, quotes, line breaks) and counts physical lines (the second record spans lines 3 to 6)', () => {
    const body =
      'name,site\r\n"a, b","say ""hi"""\r\n"two\r\nlines","three\nmore\rlines"\r\n\r\nlast,x\r\n';
    const items = convert(body, 3);
    expect(items.map((item) => [item.path, item.value])).toEqual([
      ['line 2', { name: 'a, b', site: 'say "hi"' }],
      ['line 3', { name: 'two\r\nlines', site: 'three\nmore\rlines' }],
      // Line 7 is empty and skipped.
      ['line 8', { name: 'last', site: 'x' }],
    ]);
  });

  it('takes CRLF, LF and CR line ends mixed in one file', () => {
    const body = 'name,site\r\na,x\nb,y\rc,z\r\n';
    for (const chunkSize of [1, 100]) {
      expect(convert(body, chunkSize).map((item) => [item.path, item.value])).toEqual([
        ['line 2', { name: 'a', site: 'x' }],
        ['line 3', { name: 'b', site: 'y' }],
        ['line 4', { name: 'c', site: 'z' }],
      ]);
    }
  });

  it('passes a risk score that is not a number on as written, for the validator to name', () => {
    const [item] = convert('name,risk_score\nx,high\n');
    expect(item.value).toEqual({ name: 'x', risk_score: 'high' });
  });

  it('gives the same items whatever the chunks', () => {
    const body = Buffer.from('name,vendor\n"Zürich ""edge""",Jünger\n"b\nc",d\n');
    expect(convert(body, 1)).toEqual(convert(body, body.length));
  });

  it('refuses a header naming something other than an asset field', () => {
    expect(refusal('name,ports\nx,22\n')).toBe(
      'line 1: "ports" is not an asset field (id, name, ip, type, vendor, model, risk_score, site, os_version, addresses, macAddresses, hostnames, tags) nor a column an export writes (services, sources, origin, firstSeenAt, lastSeenAt, createdAt, updatedAt)',
    );
    expect(refusal('name,sources,sources\nx,a,b\n')).toBe('line 1: sources is named twice');
    expect(refusal('name,,ip\n')).toBe('line 1: column 2 has no name');
    expect(refusal('name,ip,name\n')).toBe('line 1: name is named twice');
  });

  it('ignores the columns only an export writes, whatever they hold', () => {
    const [item] = convert(
      'id,name,services,sources,origin,firstSeenAt,lastSeenAt,createdAt,updatedAt\n' +
        'a,x,22/tcp/ssh 53/udp,nmap,ingest,bad,,2026-01-01T00:00:00.000Z,\n',
    );
    expect(item.value).toEqual({ id: 'a', name: 'x' });
  });

  it("takes off the quote an export puts before a formula's first character, and no other", () => {
    const [item] = convert(
      "name,vendor,model,site,type,os_version,id\n'=1+1,'+x,'-y,'@z,'plain,''=2,\"'\tt\"\n",
    );
    expect(item.value).toEqual({
      name: '=1+1',
      vendor: '+x',
      model: '-y',
      site: '@z',
      type: "'plain",
      os_version: "'=2",
      id: '\tt',
    });
    const [scored] = convert("name,risk_score\n'-x,'-5\n");
    expect(scored.value).toEqual({ name: '-x', risk_score: '-5' });
  });

  it('reads back every value as an export writes it, formulas and quoting included', () => {
    const values = [
      '=1+1',
      "'=1",
      "''=1",
      "'plain",
      "'",
      '+x',
      '-x',
      '@x',
      '\tx',
      '\rx',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\ronly',
      'crlf\r\nend',
      ' padded ',
      '\uff1dfull width',
    ];
    const body = csvText([['id', 'name'], ...values.map((value, i) => [`a-${i}`, value])]);
    expect(convert(body, 7).map((item) => (item.value as { name: string }).name)).toEqual(values);
  });

  it('refuses a row whose field count differs from the header, naming its line', () => {
    expect(refusal('name,ip\n"a\nb",192.0.2.1\nc\n')).toBe('line 4 has 1 fields; the header has 2');
  });

  it('refuses quoting errors, naming the line of the record', () => {
    expect(refusal('name,site\nok,x\n"never closed,x\n')).toBe(
      'line 3: a quoted field is never closed',
    );
    expect(refusal('name,site\nok,x\nbad"quote,x\n')).toBe(
      'line 3: a quote opens inside a field that is not quoted',
    );
    expect(refusal('name,site\n"a"b,x\n')).toMatch(/^line 2: a closing quote is followed by/);
  });

  it('refuses a body without a header, and bytes that are not UTF-8', () => {
    expect(refusal('')).toBe('the CSV body has no header row');
    expect(refusal('\n\n')).toBe('the CSV body has no header row');
    expect(refusal(Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xc3, 0x28, 0x0a]))).toBe(
      'the CSV body is not valid UTF-8',
    );
  });
});
