/**
 * XPath over XML bodies, for REST Client's request references
 * (`{{replies.response.body.//reply[1]/@id}}`) and httpyac's `?? xpath /a/b == x` assertions.
 * The libraries (xpath, @xmldom/xmldom: pure JavaScript) load on first use only.
 */

/** What one XPath selected: nodes, or the string, number or boolean an XPath function gave. */
export type XPathResult = { kind: 'nodes'; nodes: XPathNode[] } | { kind: 'value'; value: string | number | boolean };

/** The parts of a DOM node the callers read. */
export interface XPathNode {
  nodeType: number;
  nodeValue: string | null;
  textContent: string | null;
  childNodes?: { toString(): string };
  documentElement?: { toString(): string };
}

const DOCUMENT_NODE = 9;
const ELEMENT_NODE = 1;

/** Parses `xml` and evaluates `expression` over it; throws an Error saying which of the two failed. */
export async function evaluateXPath(
  xml: string,
  expression: string,
  namespaces?: Record<string, string>,
): Promise<XPathResult> {
  const [{ DOMParser }, xpath] = await Promise.all([import('@xmldom/xmldom'), import('xpath')]);
  let document: unknown;
  try {
    document = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (error) {
    throw new Error(`the body is not XML (${firstLine(error)})`);
  }
  let selected: unknown;
  try {
    selected = namespaces
      ? xpath.useNamespaces(namespaces)(expression, document as Node)
      : xpath.select(expression, document as Node);
  } catch (error) {
    throw new Error(`'${expression}' is not a valid XPath (${firstLine(error)})`);
  }
  if (Array.isArray(selected)) return { kind: 'nodes', nodes: selected as XPathNode[] };
  return { kind: 'value', value: selected as string | number | boolean };
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error)
    .split('\n')[0]
    .replace(/^Reporting error "(.*)" caused .*$/, '$1');
}

/**
 * The value REST Client gives a reference: the first node's inner XML for an element, the root
 * element for the document, the text of an attribute or text node; a function's value as text.
 */
export function referenceValue(result: XPathResult): string | undefined {
  if (result.kind === 'value') return String(result.value);
  const node = result.nodes[0];
  if (!node) return undefined;
  if (node.nodeType === DOCUMENT_NODE) return node.documentElement?.toString() ?? '';
  if (node.nodeType === ELEMENT_NODE) return node.childNodes?.toString() ?? '';
  return node.nodeValue ?? '';
}

/** The value httpyac's `?? xpath` compares: a node's text content (a list of them for several), or the function's value. */
export function assertionValue(result: XPathResult): unknown {
  if (result.kind === 'value') return result.value;
  if (result.nodes.length === 0) return undefined;
  const texts = result.nodes.map((node) => node.textContent ?? node.nodeValue ?? '');
  return texts.length === 1 ? texts[0] : texts;
}
