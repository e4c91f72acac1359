import { ValidationError } from '../core/errors.js';

const COLUMNS = ['meterId', 'timestamp', 'value', 'obis'] as const;

/**
 * `text/csv` uploads: a header `meterId,timestamp,value` (optionally `,obis`), one measurement per
 * line, turned into the JSON body shape so that the same validation applies. Values are numbers
 * with a dot; an unparsable value stays a string and is reported by the usual check.
 */
export function measurementsFromCsv(text: string): { measurements: Record<string, unknown>[] } {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines.shift() ?? '').split(',').map((column) => column.trim());
  const known = header.length >= 3 && header.length <= 4 && header.every((column, index) => column === COLUMNS[index]);
  if (!known) {
    throw new ValidationError([{ path: 'csv[0]', code: 'invalid_csv_header', message: 'The first line is meterId,timestamp,value (and optionally ,obis).' }]);
  }
  return {
    measurements: lines.map((line) => {
      const cells = line.split(',').map((cell) => cell.trim());
      const item: Record<string, unknown> = {};
      header.forEach((column, index) => {
        const cell = cells[index];
        if (cell === undefined || cell === '') return;
        item[column] = column === 'value' && cell !== '' && !Number.isNaN(Number(cell)) ? Number(cell) : cell;
      });
      return item;
    }),
  };
}
