import { parse } from 'csv-parse/sync';
import { csvCell, csvStream, csvText } from './csv';

describe('the CSV writer', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+1+1', "'+1+1"],
    ['-1+cmd|x', "'-1+cmd|x"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['-2.5', '-2.5'],
    ['+3', '+3'],
    ['10.0', '10.0'],
    ['Refund: Upscaling', 'Refund: Upscaling'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('csvCell(%j) is %j', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  it('writes the same cells whole and streamed', async () => {
    const rows = [
      { a: '=1+1', b: '-0.5' },
      { a: 'plain, "quoted"', b: '@x' },
    ];
    const whole = csvText(rows, ['a', 'b']);
    const stream = csvStream(['a', 'b']);
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    const done = new Promise((r) => stream.on('end', r));
    for (const row of rows) stream.write(row);
    stream.end();
    await done;
    expect(chunks.join('')).toBe(whole);
    expect(parse(whole, { columns: true })).toEqual([
      { a: "'=1+1", b: '-0.5' },
      { a: 'plain, "quoted"', b: "'@x" },
    ]);
  });
});
