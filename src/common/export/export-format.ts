import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

/** What an export route writes: a CSV table, or one JSON object per line. */
export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The media type each format is answered with. */
export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** `format` of an export route; joined to the query of the list it exports. */
export class ExportFormatQueryDto {
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    enumName: 'ExportFormat',
    description:
      'csv: a header row, then a row per item; ndjson: one JSON object per line, as the API shows it. Default: csv',
  })
  format?: ExportFormat;
}
