import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';

/** The parts of pdfkit 0.20's PDF/A support (its PDFA mixin) used here; invoice-pdf-output.test.ts guards them. */
interface OutputIntentInternals {
  _root: { data: Record<string, unknown> };
  ref(data: Record<string, unknown>): { end(chunk?: Uint8Array): void };
  _addColorOutputIntent?: () => void;
}

/** pdfkit's sRGB ICC profile, compressed as pdfkit compresses a stream (zlib's default level); read on first use. */
let profile: Buffer | undefined;
const compressedProfile = () => (profile ??= deflateSync(readFileSync(join(dirname(createRequire(import.meta.url).resolve('pdfkit')), 'data/sRGB_IEC61966_2_1.icc'))));

/**
 * Makes a PDF/A document write its colour output intent as pdfkit does, with the same objects and
 * bytes, but from an ICC profile compressed once per process: pdfkit compresses the same 3 kB anew
 * for every document.
 */
export function cacheOutputIntent(doc: PDFKit.PDFDocument): void {
  const internals = doc as unknown as OutputIntentInternals;
  if (!internals._addColorOutputIntent) return;
  // The document is `this`, as pdfkit calls it (see collectInto in invoice-pdf-output.ts on why it keeps no document).
  internals._addColorOutputIntent = function (this: OutputIntentInternals) {
    const colorProfile = this.ref({ Length: 0, N: 3, Filter: 'FlateDecode' });
    colorProfile.end(compressedProfile());
    const intent = this.ref({
      Type: 'OutputIntent',
      S: 'GTS_PDFA1',
      // pdfkit writes String objects as PDF strings, primitive strings as names.
      Info: new String('sRGB IEC61966-2.1'),
      OutputConditionIdentifier: new String('sRGB IEC61966-2.1'),
      DestOutputProfile: colorProfile,
    });
    intent.end();
    this._root.data.OutputIntents = [intent];
  };
}
