import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_BODY_DEPTH } from '../../common/json-depth.js';
import type { ConvertedItem, ScannerConverter, ScannerFormat } from './converted-item.js';
import { FormatError } from './format-error.js';
import { GreenboneXmlConverter } from './greenbone-xml.converter.js';
import { MasscanConverter } from './masscan.converter.js';
import { NessusXmlConverter } from './nessus-xml.converter.js';
import { NmapXmlConverter } from './nmap-xml.converter.js';
import type { XmlHandler } from './xml-handler.js';

type XmlFormat = 'nmap' | 'nessus' | 'greenbone' | 'masscan';

/** Each XML format's handler, and the root elements that tell it, as the refusals name them. */
const XML_FORMATS: Record<XmlFormat, { handler: () => XmlHandler; roots: string }> = {
  nmap: { handler: () => new NmapXmlConverter(), roots: '<nmaprun> (Nmap)' },
  nessus: { handler: () => new NessusXmlConverter(), roots: '<NessusClientData_v2> (Nessus)' },
  greenbone: {
    handler: () => new GreenboneXmlConverter(),
    roots: '<report> or <get_reports_response> (Greenbone)',
  },
  masscan: {
    handler: () => new MasscanConverter(),
    roots: '<nmaprun scanner="masscan"> (masscan)',
  },
};

/** The format a root element tells, or null for a root of none. */
function formatOfRoot(tag: SaxesTagPlain): XmlFormat | null {
  switch (tag.name) {
    case 'nmaprun':
      return tag.attributes.scanner === 'masscan' ? 'masscan' : 'nmap';
    case 'NessusClientData_v2':
      return 'nessus';
    case 'report':
    case 'get_reports_response':
      return 'greenbone';
    default:
      return null;
  }
}

const UTF8_NAMES = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);
/** `<!DOCTYPE name>` and nothing else: it declares nothing and points at nothing. */
const PLAIN_DOCTYPE = /^\s*[^\s[\]'"]+\s*$/;

/** Why a DOCTYPE other than a plain one is refused, for the client. */
function doctypeRefusal(doctype: string): string {
  if (/<!ENTITY/i.test(doctype)) return 'declares entities';
  if (/\b(SYSTEM|PUBLIC)\b/.test(doctype)) return 'names an external DTD';
  return 'has an internal DTD subset';
}

/** saxes' "12:5: unclosed tag: host." as a sentence naming the place. */
function notWellFormed(error: Error): FormatError {
  const match = /^(\d+):(\d+): (.*?)\.?$/s.exec(error.message);
  const where = match ? ` (line ${match[1]}, column ${match[2]})` : '';
  return new FormatError(
    `the XML body is not well formed: ${match ? match[3] : error.message}${where}`,
  );
}

/**
 * An XML body, Nmap's, masscan's, Nessus's or Greenbone's according to its root element (which
 * must be that of the format `?format=` named, when it named one), read with saxes (strict,
 * streaming: well-formedness errors are reported, never repaired). saxes reads no DTD and
 * expands no entity but the five predefined ones and character references; a DOCTYPE other
 * than a plain `<!DOCTYPE name>` is refused before the root is read, and a reference to an
 * entity nobody declared is a well-formedness error.
 */
export class XmlConverter implements ScannerConverter {
  private format_: ScannerFormat | null = null;
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private handler: XmlHandler | null = null;
  private readonly stack: string[] = [];

  constructor(private readonly requested: ScannerFormat | null = null) {
    const parser = this.parser;
    parser.on('error', (error) => {
      throw error instanceof FormatError ? error : notWellFormed(error);
    });
    parser.on('xmldecl', (declaration) => {
      const encoding = declaration.encoding;
      if (encoding !== undefined && !UTF8_NAMES.has(encoding.toLowerCase())) {
        throw new FormatError(`the XML body must be UTF-8; it declares ${encoding}`);
      }
    });
    parser.on('doctype', (doctype) => {
      if (!PLAIN_DOCTYPE.test(doctype)) {
        throw new FormatError(
          `the XML body ${doctypeRefusal(doctype)}; only a plain <!DOCTYPE name> is accepted`,
        );
      }
    });
    parser.on('opentag', (tag: SaxesTagPlain) => this.open(tag));
    parser.on('closetag', (tag: SaxesTagPlain) => {
      this.stack.pop();
      this.handler!.close(tag.name, this.stack[this.stack.length - 1]);
    });
    parser.on('text', (text) => this.handler?.text(text));
    parser.on('cdata', (text) => this.handler?.text(text));
  }

  get format(): ScannerFormat | null {
    return this.format_;
  }

  write(chunk: Uint8Array | string): ConvertedItem[] {
    this.parser.write(typeof chunk === 'string' ? chunk : this.decode(chunk, true));
    return this.handler ? this.handler.take() : [];
  }

  *end(): Generator<ConvertedItem> {
    const rest = this.decode(new Uint8Array(0), false);
    if (rest) this.parser.write(rest);
    this.parser.close();
    const handler = this.handler!;
    yield* handler.take();
    yield* handler.end();
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return this.decoder.decode(bytes, { stream });
    } catch {
      throw new FormatError('the XML body is not valid UTF-8');
    }
  }

  private open(tag: SaxesTagPlain): void {
    // The parser keeps every open element: a body of nothing but opening tags would otherwise
    // hold millions of them.
    if (this.stack.length >= MAX_BODY_DEPTH) {
      throw new FormatError(`the XML body nests deeper than ${MAX_BODY_DEPTH} elements`);
    }
    const parent = this.stack[this.stack.length - 1];
    if (!this.handler) {
      const format = formatOfRoot(tag);
      const requested = this.requested;
      if (format === null || (requested !== null && requested !== format)) {
        const expected =
          requested !== null && Object.hasOwn(XML_FORMATS, requested)
            ? `${XML_FORMATS[requested as XmlFormat].roots}, as format=${requested} says`
            : Object.values(XML_FORMATS)
                .map((entry) => entry.roots)
                .join(', ');
        throw new FormatError(
          `the XML body's root element is <${tag.name}>${format === null ? '' : ` (${format})`}: expected ${expected}`,
        );
      }
      this.format_ = format;
      this.handler = XML_FORMATS[format].handler();
    }
    this.stack.push(tag.name);
    this.handler.open(tag.name, tag.attributes, parent);
  }
}
