import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const XSD_DIR = new URL('../sepa/xsd/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ebbs-sepa-'));
let files = 0;

/** Writes the XML to a temporary file and answers its path. */
export function sepaFile(xml: string): string {
  const path = join(dir, `sepa-${++files}.xml`);
  writeFileSync(path, xml);
  return path;
}

/** The ISO 20022 XSD's verdict (xmllint): null when valid, else xmllint's report. The schema follows the document's namespace. */
export async function sepaSchemaErrors(xml: string): Promise<string | null> {
  const xsd = xml.includes('urn:iso:std:iso:20022:tech:xsd:pain.008.001.08') ? 'pain.008.001.08.xsd' : 'pain.001.001.09.xsd';
  try {
    await run('xmllint', ['--noout', '--schema', join(XSD_DIR, xsd), sepaFile(xml)]);
    return null;
  } catch (error) {
    const { code, stderr } = error as { code?: unknown; stderr?: string };
    return code === 'ENOENT' ? 'xmllint missing: apt-get install -y libxml2-utils' : stderr || String(error);
  }
}

/** Every value of an element, in document order. */
export function elementValues(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, 'g'))].map((m) => m[1]!);
}
