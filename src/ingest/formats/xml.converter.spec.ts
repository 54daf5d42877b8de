import { describe, expect, it } from '@jest/globals';
import { convertAll } from './convert-fixtures.js';
import { FormatError } from './format-error.js';
import { XmlConverter } from './xml.converter.js';

const refusal = (body: Uint8Array | string) => {
  try {
    convertAll(new XmlConverter(), body, 16);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return (error as Error).message;
  }
  throw new Error('the body was accepted');
};

describe('XML bodies', () => {
  it("accepts Nmap's plain DOCTYPE and its stylesheet instruction", () => {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n<?xml-stylesheet href="file:///usr/share/nmap/nmap.xsl" type="text/xsl"?>\n<nmaprun/>';
    expect(convertAll(new XmlConverter(), body)).toEqual([]);
  });

  it('refuses a document that declares entities, before any is used', () => {
    expect(
      refusal(
        '<!DOCTYPE nmaprun [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><nmaprun>&xxe;</nmaprun>',
      ),
    ).toBe('the XML body declares entities; only a plain <!DOCTYPE name> is accepted');
    expect(
      refusal('<!DOCTYPE nmaprun [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]><nmaprun/>'),
    ).toMatch(/declares entities/);
  });

  it('refuses a document that names an external DTD', () => {
    expect(refusal('<!DOCTYPE nmaprun SYSTEM "http://192.0.2.1/nmap.dtd"><nmaprun/>')).toBe(
      'the XML body names an external DTD; only a plain <!DOCTYPE name> is accepted',
    );
    expect(refusal('<!DOCTYPE nmaprun PUBLIC "-//X//DTD Y//EN" "y.dtd"><nmaprun/>')).toMatch(
      /names an external DTD/,
    );
  });

  it('refuses any other internal DTD subset', () => {
    expect(refusal('<!DOCTYPE nmaprun [<!ATTLIST host status CDATA "up">]><nmaprun/>')).toMatch(
      /has an internal DTD subset/,
    );
  });

  it('refuses a reference to an entity nobody declared', () => {
    expect(refusal('<nmaprun>&nbsp;</nmaprun>')).toBe(
      'the XML body is not well formed: undefined entity (line 1, column 15)',
    );
  });

  it('refuses another root element, or the root of another format than ?format= names', () => {
    expect(refusal('<?xml version="1.0"?><scan><host/></scan>')).toBe(
      'the XML body\'s root element is <scan>: expected <nmaprun> (Nmap), <NessusClientData_v2> (Nessus), <report> or <get_reports_response> (Greenbone), <nmaprun scanner="masscan"> (masscan)',
    );
    const asNessus = new XmlConverter('nessus');
    expect(() => asNessus.write('<nmaprun scanner="nmap">')).toThrow(
      "the XML body's root element is <nmaprun> (nmap): expected <NessusClientData_v2> (Nessus), as format=nessus says",
    );
    const asNmap = new XmlConverter('nmap');
    expect(() => asNmap.write('<nmaprun scanner="masscan">')).toThrow(
      "the XML body's root element is <nmaprun> (masscan): expected <nmaprun> (Nmap), as format=nmap says",
    );
  });

  it('refuses XML that is not well formed, naming the place', () => {
    expect(refusal('<nmaprun>\n<host>\n</nmaprun>')).toBe(
      'the XML body is not well formed: unexpected close tag (line 3, column 10)',
    );
    expect(refusal('<nmaprun><host/>')).toMatch(/^the XML body is not well formed: unclosed tag/);
    expect(refusal('<nmaprun/><nmaprun/>')).toMatch(
      /not well formed: documents may contain only one root/,
    );
    expect(refusal('<nmaprun a=1/>')).toMatch(/not well formed/);
    expect(refusal('')).toMatch(/not well formed/);
    expect(refusal('{"assets": []}')).toMatch(/not well formed/);
  });

  it('refuses bytes that are not UTF-8, and another declared encoding', () => {
    expect(refusal(Buffer.from([0x3c, 0x6e, 0x6d, 0x61, 0x70, 0xff, 0x3e]))).toBe(
      'the XML body is not valid UTF-8',
    );
    expect(refusal('<?xml version="1.0" encoding="ISO-8859-1"?><nmaprun/>')).toBe(
      'the XML body must be UTF-8; it declares ISO-8859-1',
    );
  });

  it('refuses elements nested deeper than a JSON body may nest', () => {
    expect(refusal(`<nmaprun>${'<x>'.repeat(199)}`)).toMatch(/^the XML body is not well formed/);
    expect(refusal(`<nmaprun>${'<x>'.repeat(200)}`)).toBe(
      'the XML body nests deeper than 200 elements',
    );
  });

  it('accepts a UTF-8 byte order mark', () => {
    expect(convertAll(new XmlConverter(), Buffer.from('\ufeff<nmaprun/>'))).toEqual([]);
  });
});
