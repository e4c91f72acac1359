import { CsvError, parse } from 'csv-parse/sync';
import { INTERPOLATED_REMOVED } from '../core/domain/measurements/ingest.js';
import { ValidationError, type FieldError } from '../core/errors.js';

const COLUMNS = ['meterId', 'timestamp', 'value', 'obis'] as const;

/** RFC 4180 records, cells trimmed, blank lines skipped; a malformed text names the record it broke in. */
function recordsOf(text: string): string[][] {
  try {
    // Rows of any length come back, so that every row with extra cells can be named at once.
    return parse(text, { trim: true, skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new ValidationError([{ path: `csv[${Number(error.records)}]`, code: 'invalid_csv', message: error.message }]);
  }
}

function checkHeader(header: readonly string[]): void {
  const errors: FieldError[] = [];
  if (header.includes('interpolated')) errors.push({ path: 'csv[0].interpolated', code: 'field_removed', message: INTERPOLATED_REMOVED });
  const columns = header.filter((column) => column !== 'interpolated');
  const known = columns.length >= 3 && columns.length <= 4 && columns.every((column, index) => column === COLUMNS[index]);
  if (!known) errors.push({ path: 'csv[0]', code: 'invalid_csv_header', message: 'The first line is meterId,timestamp,value (and optionally ,obis).' });
  if (errors.length > 0) throw new ValidationError(errors);
}

/**
 * `text/csv` uploads: a header `meterId,timestamp,value` (optionally `,obis`), one measurement per
 * row, turned into the JSON body shape so that the same validation applies. `csv[n]` in errors is
 * the n-th record after the header `csv[0]`, blank lines not counted. Values are numbers with a
 * dot; an unparsable value stays a string and is reported by the usual check.
 */
export function measurementsFromCsv(text: string): { measurements: Record<string, unknown>[] } {
  const [header, ...rows] = recordsOf(text);
  const columns = header ?? [];
  checkHeader(columns);
  const longer = rows.flatMap((record, index) =>
    record.length > columns.length ? [{ path: `csv[${index + 1}]`, code: 'invalid_csv_row', message: `The row has ${record.length} cells; the header has ${columns.length}.` }] : [],
  );
  if (longer.length > 0) throw new ValidationError(longer);
  return {
    measurements: rows.map((record) => {
      const item: Record<string, unknown> = {};
      columns.forEach((column, index) => {
        const cell = record[index];
        if (cell === undefined || cell === '') return;
        item[column] = column === 'value' && !Number.isNaN(Number(cell)) ? Number(cell) : cell;
      });
      return item;
    }),
  };
}
