import { describe, expect, it } from '@jest/globals';
import { MAX_BODY_DEPTH } from '../../common/json-depth.js';
import { JsonStream, type JsonKind, type JsonPath, type JsonStep } from './json-stream.js';

/** Feeds `body` in chunks of `size` bytes; `step` decides; returns what the handler heard. */
function read(
  body: string | Buffer,
  step: (path: JsonPath, kind: JsonKind) => JsonStep,
  size = 3,
): { events: string[]; lines: number[] } {
  const events: string[] = [];
  const lines: number[] = [];
  const stream = new JsonStream(
    {
      step: (path, kind, line) => {
        if (path.length === 0) lines.push(line);
        return step(path, kind);
      },
      value: (path, value) => events.push(`${path.join('.')}=${JSON.stringify(value)}`),
      closed: (path) => events.push(`${path.join('.')} closed`),
    },
    'the body',
  );
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  for (let start = 0; start < bytes.length; start += size) {
    stream.write(bytes.subarray(start, start + size));
  }
  stream.end();
  return { events, lines };
}

const refusal = (body: string | Buffer, step: JsonStep = 'skip') => {
  try {
    read(body, (path) => (path.length === 0 ? 'descend' : step));
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

describe('JsonStream', () => {
  it('hands over the values captured, descending where told, whatever the chunks', () => {
    const body =
      '{"a": {"b": [1, {"c": "x\\"}y"}], "skip": {"deep": [true, null, -1.5e3]}}, "d\\u0041": "é\\\\"}';
    for (const size of [1, 2, 3, 64]) {
      const { events } = read(
        body,
        (path) => {
          const key = path.join('.');
          if (key === '' || key === 'a' || key === 'a.b') return 'descend';
          if (key === 'a.b.1' || key === 'dA') return 'capture';
          return 'skip';
        },
        size,
      );
      expect(events).toEqual([
        'a.b.1={"c":"x\\"}y"}',
        'a.b closed',
        'a closed',
        'dA="é\\\\"',
        ' closed',
      ]);
    }
  });

  it('reads a sequence of documents, each with the line it starts on', () => {
    const { events, lines } = read('{"n": 1}\n{"n": 2}\n\n{"n":\n 3}\n', () => 'capture');
    expect(events).toEqual(['={"n":1}', '={"n":2}', '={"n":3}']);
    expect(lines).toEqual([0, 1, 3]);
  });

  it('captures scalars whole, numbers ended by a delimiter or the end of the body', () => {
    const { events } = read('[12.5, "a,b", true]7', (path) =>
      path.length === 0 ? 'descend' : 'capture',
    );
    expect(events).toEqual(['0=12.5', '1="a,b"', '2=true', ' closed']);
  });

  it('checks what it skips: grammar, literals, keys, the end', () => {
    expect(refusal('{"a": tru}')).toBe(
      'the body is not valid JSON: "tru" is not a JSON value (line 1)',
    );
    expect(refusal('{"a" 1}')).toBe(
      'the body is not valid JSON: a colon must follow an object key (line 1)',
    );
    expect(refusal('{"a": 1,}')).toBe(
      'the body is not valid JSON: an object key must be a string (line 1)',
    );
    expect(refusal('{"a": [1 2]}')).toBe('the body is not valid JSON: unexpected "2" (line 1)');
    expect(refusal('{"a": [1]]')).toBe('the body is not valid JSON: unexpected "]" (line 1)');
    expect(refusal('{"a": "open')).toBe('the body is not valid JSON: it ends inside a value');
    expect(refusal('\n\n{"a": x}')).toBe('the body is not valid JSON: unexpected "x" (line 3)');
    expect(refusal('{"a": {"b": 1,}}', 'capture')).toMatch(
      /^the body is not valid JSON: .*\(line 1\)$/,
    );
  });

  it('refuses bytes that are not UTF-8, and nesting deeper than the JSON limit', () => {
    expect(refusal(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toBe(
      'the body is not valid UTF-8',
    );
    const deep = `${'['.repeat(MAX_BODY_DEPTH + 1)}${']'.repeat(MAX_BODY_DEPTH + 1)}`;
    expect(refusal(`{"a": ${deep}}`)).toBe(`the body nests deeper than ${MAX_BODY_DEPTH} levels`);
    expect(refusal(`{"a": ${deep}}`, 'capture')).toBe(
      `the body nests deeper than ${MAX_BODY_DEPTH} levels`,
    );
  });
});
