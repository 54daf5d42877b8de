import { describe, expect, it } from '@jest/globals';
import { csvText, exportText, type CsvColumn } from './export-text.js';

interface Item {
  name: string;
  score: number | null;
}

const COLUMNS: CsvColumn<Item>[] = [
  { name: 'name', cell: (item) => item.name },
  { name: 'score', cell: (item) => item.score },
];

async function* batches(...lists: Item[][]): AsyncGenerator<Item[]> {
  for (const list of lists) yield list;
}

const all = async (chunks: AsyncIterable<string>): Promise<string[]> => {
  const texts: string[] = [];
  for await (const chunk of chunks) texts.push(chunk);
  return texts;
};

describe('export text', () => {
  it('writes CSV as RFC 4180 says, a formula quoted, an empty cell for null', () => {
    expect(csvText([['a,b', 'say "hi"', 'x\ny', 'cr\r', null, 0, '=1', "'=1", "'x", '-2']])).toBe(
      `"a,b","say ""hi""","x\ny","cr\r",,0,'=1,''=1,'x,'-2\r\n`,
    );
  });

  it('writes the header row then a chunk per batch; the header alone for none', async () => {
    const items = batches([{ name: '@a', score: 1.5 }], [], [{ name: 'b', score: null }]);
    expect(await all(exportText('csv', items, COLUMNS))).toEqual([
      "name,score\r\n'@a,1.5\r\n",
      'b,\r\n',
    ]);
    expect(await all(exportText('csv', batches(), COLUMNS))).toEqual(['name,score\r\n']);
  });

  it("writes NDJSON as each item's JSON on a line, nothing for none", async () => {
    const items = batches([{ name: '=a', score: 1 }], [], [{ name: 'b\nc', score: null }]);
    expect(await all(exportText('ndjson', items, COLUMNS))).toEqual([
      '{"name":"=a","score":1}\n',
      '{"name":"b\\nc","score":null}\n',
    ]);
    expect(await all(exportText('ndjson', batches(), COLUMNS))).toEqual([]);
  });
});
