import type { Labels } from './invoice-pdf-labels.js';
import { colors, contentWidth, mm, page, type PdfLayout } from './invoice-pdf-layout.js';

/**
 * The structured invoice to go with the PDF. Factur-X: the PDF becomes an EN 16931 hybrid with the
 * CII XML embedded as factur-x.xml. XRechnung: the XML is the invoice and the PDF only shows it,
 * which every page says (so there are not two invoices, § 14c UStG); nothing is embedded.
 */
export interface InvoicePdfEInvoice {
  format: 'facturx' | 'xrechnung';
  xml: string;
}

/** The note that this PDF only visualises the XRechnung, above the top margin of a page. */
export function visualisationMarker(layout: PdfLayout, l: Labels): void {
  layout.textAt(l.eInvoiceVisualisation, page.left, mm(8), contentWidth, { size: 8, bold: true, color: colors.accent });
}

const facturX = {
  fileName: 'factur-x.xml',
  namespace: 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#',
  version: '1.0',
  conformanceLevel: 'EN 16931',
} as const;

/** One property of the Factur-X extension schema, as the PDF/A extension schema container describes it. */
const facturXProperty = (name: string, description: string) => `
                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>${name}</pdfaProperty:name>
                  <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                  <pdfaProperty:category>external</pdfaProperty:category>
                  <pdfaProperty:description>${description}</pdfaProperty:description>
                </rdf:li>`;

/**
 * The XMP for a Factur-X hybrid: the extension schema declaring the fx namespace (XMP properties
 * outside the predefined schemas must be declared so in a PDF/A), then the fx values.
 */
const facturXMetadata = `
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
          <pdfaExtension:schemas>
            <rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>${facturX.namespace}</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property>
                  <rdf:Seq>${facturXProperty('DocumentFileName', 'The name of the embedded XML document')}${facturXProperty('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}${facturXProperty('Version', 'The actual version of the standard applying to the embedded XML document')}${facturXProperty('ConformanceLevel', 'The conformance level of the embedded XML document')}
                  </rdf:Seq>
                </pdfaSchema:property>
              </rdf:li>
            </rdf:Bag>
          </pdfaExtension:schemas>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:fx="${facturX.namespace}">
          <fx:DocumentType>INVOICE</fx:DocumentType>
          <fx:DocumentFileName>${facturX.fileName}</fx:DocumentFileName>
          <fx:Version>${facturX.version}</fx:Version>
          <fx:ConformanceLevel>${facturX.conformanceLevel}</fx:ConformanceLevel>
        </rdf:Description>`;

/** Makes the PDF a Factur-X EN 16931 hybrid: the CII XML as its alternative representation, declared in the XMP. */
export function embedFacturX(layout: PdfLayout, xml: string, date: Date): void {
  layout.attachFile(facturX.fileName, Buffer.from(xml, 'utf8'), {
    type: 'text/xml',
    relationship: 'Alternative',
    description: `Factur-X invoice (${facturX.conformanceLevel})`,
    date,
  });
  layout.appendMetadata(facturXMetadata);
}
