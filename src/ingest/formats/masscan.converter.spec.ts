import { describe, expect, it } from '@jest/globals';
import { converterFor } from './convert-body.js';
import { convertAll, fixture, service } from './convert-fixtures.js';
import { chooseFormat } from './format-choice.js';

const asJson = () => converterFor(chooseFormat('application/json', 'masscan')!);
const asXml = () => converterFor(chooseFormat('application/xml', undefined)!);

const EXPECTED = [
  {
    part: 'assets',
    path: 'hosts[0]',
    value: {
      name: '192.0.2.10',
      ip: '192.0.2.10',
      addresses: ['192.0.2.10'],
      services: [service(443, 'tcp'), service(22, 'tcp')],
    },
  },
  {
    part: 'assets',
    path: 'hosts[1]',
    value: {
      name: '198.51.100.7',
      ip: '198.51.100.7',
      addresses: ['198.51.100.7'],
      services: [service(22, 'tcp'), service(53, 'udp')],
    },
  },
];

describe('masscan', () => {
  it('-oX: groups the records by address, one asset each with its open ports', () => {
    const converter = asXml();
    for (const chunkSize of [7, 4096]) {
      expect(convertAll(asXml(), fixture('masscan/documentation-ranges.xml'), chunkSize)).toEqual(
        EXPECTED,
      );
    }
    convertAll(converter, fixture('masscan/documentation-ranges.xml'));
    expect(converter.format).toBe('masscan');
  });

  it('-oJ: the same scan gives the same assets, whatever the chunks', () => {
    for (const chunkSize of [1, 5, 4096]) {
      expect(convertAll(asJson(), fixture('masscan/documentation-ranges.json'), chunkSize)).toEqual(
        EXPECTED,
      );
    }
  });

  it('-oD: a record per line is read as well; an empty body gives nothing', () => {
    const lines = '{"ip":"192.0.2.1","ports":[{"port":80,"proto":"tcp","status":"open"}]}\n';
    expect(convertAll(asJson(), lines)).toEqual([
      {
        part: 'assets',
        path: 'hosts[0]',
        value: {
          name: '192.0.2.1',
          ip: '192.0.2.1',
          addresses: ['192.0.2.1'],
          services: [service(80, 'tcp')],
        },
      },
    ]);
    expect(convertAll(asJson(), '')).toEqual([]);
    expect(convertAll(asJson(), '[\n]\n')).toEqual([]);
  });

  it('passes odd values on for the validator, and names a record that is no object', () => {
    const odd = '[{"ip":"not-an-ip","ports":[{"port":"http","proto":"tcp","status":"open"}]}]';
    expect(convertAll(asJson(), odd)[0].value).toEqual({
      name: 'not-an-ip',
      ip: 'not-an-ip',
      services: [service('http' as unknown as number, 'tcp')],
    });
    expect(() => convertAll(asJson(), '[{"ip":"192.0.2.1","ports":[]}, 42]')).toThrow(
      'hosts[1] must be an object, as masscan -oJ writes each record',
    );
  });

  it('refuses JSON that is not well formed, naming the line', () => {
    expect(() => convertAll(asJson(), '[\n{"ip": "192.0.2.1",}\n]')).toThrow(
      /^the masscan JSON body is not valid JSON: .* \(line 2\)$/,
    );
    expect(() => convertAll(asJson(), '[{"ip": "192.0.2.1"}')).toThrow(
      'the masscan JSON body is not valid JSON: it ends inside a value',
    );
  });
});
