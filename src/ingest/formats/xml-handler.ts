import type { ConvertedItem } from './converted-item.js';

/** The element events of one XML format, as XmlConverter hands them over. */
export interface XmlHandler {
  /** `parent` is the name of the enclosing element (undefined for the root). */
  open(name: string, attributes: Record<string, string>, parent: string | undefined): void;
  close(name: string, parent: string | undefined): void;
  /** Character data (text and CDATA), possibly in several pieces. */
  text(text: string): void;
  /** Items completed since the last call, handed over and forgotten. */
  take(): ConvertedItem[];
  /** The document is over: the items kept for its end. */
  end(): Iterable<ConvertedItem>;
}
