import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';

const TEXT = { schema: { type: 'string' as const } };

/** The 200 of an export route of `name`: CSV or NDJSON text, an attachment. */
export function ApiExportResponse(name: string) {
  return applyDecorators(
    ApiOkResponse({
      description: `The export, streamed as an attachment (\`format\` says which of the two)`,
      headers: {
        'Content-Disposition': {
          description: `\`attachment; filename="${name}-YYYY-MM-DD.csv"\` (or \`.ndjson\`), the day of the export in UTC`,
          schema: { type: 'string' },
        },
      },
      content: { 'text/csv': TEXT, 'application/x-ndjson': TEXT },
    }),
  );
}
