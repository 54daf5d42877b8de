import {
  applyDecorators,
  Body,
  Controller,
  HttpCode,
  HttpStatus,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  type SchemaObject,
} from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MediaTypesConfig } from '../common/filters/all-exceptions.filter.js';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { KeyScope } from '../common/decorators/key-scope.decorator.js';
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
} from '../common/openapi/api-error-responses.decorator.js';
import type { Principal } from '../common/principal.js';
import { Role } from '../common/role.js';
import { Scope } from '../common/scope.js';
import { IngestRequestDto } from '../ingest/dto/ingest-request.dto.js';
import { IngestResponse } from '../ingest/dto/ingest-response.dto.js';
import { IngestService, type IngestForm } from '../ingest/ingest.service.js';
import { SCANNER_MEDIA_TYPES } from '../ingest/ingest-route.js';
import { FORMAT_PARAMETER_DESCRIPTION } from '../ingest/dto/scanner-bodies.openapi.js';
import { SCANNER_FORMATS } from '../common/ingest-formats.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  KEPT_ANSWER_HOURS,
  REPLAYED_HEADER,
} from './idempotency-keys.service.js';
import { IngestionRecorder } from './ingestion-recorder.service.js';

export { INGEST_PATH } from '../ingest/ingest-route.js';
const INGEST_MEDIA_TYPES: MediaTypesConfig = {
  mediaTypes: ['application/json', ...SCANNER_MEDIA_TYPES],
};

const SCANNER_ONLY = 'Scanner formats only (a JSON body carries its options itself: 400 here).';

/** The options of a scanner body, in the query; the rules of the JSON body's `options`. */
function ApiScannerOptions() {
  const query = (name: string, description: string, schema: SchemaObject, example?: unknown) =>
    ApiQuery({
      name,
      required: false,
      description: `${description} ${SCANNER_ONLY}`,
      schema,
      ...(example !== undefined && { example }),
    });
  return applyDecorators(
    ApiQuery({
      name: 'format',
      required: false,
      description: FORMAT_PARAMETER_DESCRIPTION,
      schema: { type: 'string', enum: [...SCANNER_FORMATS] },
      example: 'trivy',
    }),
    query('mode', 'merge (default), append or replace (admin).', {
      type: 'string',
      enum: ['merge', 'append', 'replace'],
    }),
    query(
      'source',
      'The feed (1 to 100 characters), recorded on every asset the run names.',
      { type: 'string', minLength: 1, maxLength: 100 },
      'nmap-dmz',
    ),
    query('deleteStale', '`true` or `false`; merge only.', { type: 'boolean' }),
    query('dryRun', '`true`: plan and answer, write nothing.', { type: 'boolean' }),
    query('maxDeletions', 'Refuse the run (409) when it would delete more assets.', {
      type: 'integer',
      minimum: 0,
    }),
    query('maxFixes', 'Refuse the run (409) when it would fix more findings.', {
      type: 'integer',
      minimum: 0,
    }),
    query(
      'matchBy',
      'Comma-separated keys among id, mac, ip and hostname, id among them (default `id,mac,ip`): how a host without a stored id may match a stored asset, tried in the order mac, ip, hostname whatever the order written.',
      { type: 'string', example: 'id,mac,ip,hostname' },
    ),
    query(
      'site',
      "The site of every host (a host's own site wins in CSV): a host with a site matches by ip and hostname only assets of that site, so that two sites may use the same private range.",
      { type: 'string', maxLength: 255, example: 'paris' },
    ),
  );
}

@ApiTags('ingestion')
@ApiAuthenticated()
@Controller('integrations')
export class IngestController {
  constructor(
    private readonly ingestion: IngestService,
    private readonly recorder: IngestionRecorder,
  ) {}

  /**
   * The body is checked by parseIngestPayload (validate/), not the global ValidationPipe: typed
   * `unknown`, it passes through untouched, which keeps a hundred thousand items fast.
   * IngestRequestDto only documents it (@ApiBody leaves the parameter's type, and so the pipe,
   * alone). The answer is sent as the recorder gives it, byte for byte, so that a replay is
   * the kept answer exactly (status included: hence @Res rather than a returned value).
   */
  @Roles(Role.Editor)
  @KeyScope(Scope.Ingest)
  @Post('ingest')
  @RouteConfig(INGEST_MEDIA_TYPES)
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Ingest scanner output (editor; replace mode and deleteStale without a source: admin)',
    description:
      "The body is JSON (assets, relations, options) or a scanner's own output, whose options come in the query: by Content-Type, Nmap XML, Nessus v2, Greenbone / OpenVAS reports or masscan `-oX` (`application/xml`, `text/xml`, told apart by the root element), or a CSV asset table (`text/csv`); with `?format=`, also masscan `-oJ` and Trivy reports (`application/json`) and Nuclei JSON Lines (`application/x-ndjson` or `application/json`). A JSON body without `?format=` is the native payload. Any body may be sent with `Content-Encoding: gzip`. Each scanner host becomes an asset item matched by ip (a Trivy image by its id, the artifact name), an Nmap trace `route` relations. Items are checked in order (assets, then relations); the first bad one is named by its path (`assets[3]`, `hosts[3]`, `results[3]`, `line 7`) and nothing is stored. The write is one transaction: it all lands or none of it does. Items are matched against the state before the ingestion. Ingestions run one at a time; other requests are served meanwhile (a dry run waits for none). Running the same merge payload twice changes nothing but the assets' lastSeenAt. Every request past the role check is recorded as a run (GET /api/integrations/runs); the answer names it by runId.",
  })
  @ApiBody({
    type: IngestRequestDto,
    description: 'Assets, relations and options; every part optional',
    examples: {
      merge: {
        summary: 'merge (the default)',
        value: {
          options: { mode: 'merge', source: 'nmap-dmz' },
          assets: [
            {
              id: 'fw-1',
              name: 'fw-1',
              ip: '10.0.0.1',
              type: 'firewall',
              vulnerabilities: [
                {
                  id: 'CVE-2024-3400',
                  score: 10,
                  summary: 'PAN-OS RCE',
                  publishedDate: '2024-04-12',
                },
              ],
            },
            { id: 'web-1', name: 'web-1', ip: '10.0.0.2', type: 'server' },
          ],
          relations: [
            { sourceAssetId: 'web-1', targetAssetId: 'fw-1', type: 'route', toPorts: '443' },
          ],
        },
      },
      deleteStale: {
        summary: 'merge, deleting what this source no longer reports',
        value: {
          options: { deleteStale: true, source: 'nmap-dmz' },
          assets: [{ id: 'fw-1' }, { id: 'web-1' }],
        },
      },
      dryRun: {
        summary: 'a dry run: the plan and its change list, nothing written',
        value: {
          options: {
            source: 'nmap-dmz',
            deleteStale: true,
            dryRun: true,
            maxDeletions: 10,
            matchBy: ['id'],
          },
          assets: [{ id: 'fw-1', name: 'fw-1', ip: '10.0.0.1' }],
        },
      },
      append: {
        summary: 'append',
        value: { options: { mode: 'append' }, assets: [{ name: 'laptop-17', ip: '10.2.0.17' }] },
      },
      replace: {
        summary: 'replace (admin)',
        value: { options: { mode: 'replace' }, assets: [{ id: 'fw-1', name: 'fw-1' }] },
      },
    },
  })
  @ApiScannerOptions()
  @ApiHeader({
    name: 'Content-Encoding',
    required: false,
    description:
      '`gzip` (inflated as it is read; INGEST_MAX_BYTES limits the inflated body) or `identity`; any other is 415',
    schema: { type: 'string', enum: ['gzip', 'identity'] },
  })
  @ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description: `1 to 255 printable characters, such as the CI job's id. The first request with a key runs and its answer (below 500) is kept ${KEPT_ANSWER_HOURS} hours for this key and this caller (the API key, or the user with a session token); the same key with a byte-identical body (inflated, with the same Content-Type and query) gets that answer again, with \`${REPLAYED_HEADER}: true\`, and runs nothing.`,
    schema: { type: 'string', minLength: 1, maxLength: 255, example: 'ci-pipeline-4711' },
  })
  @ApiOkResponse({
    type: IngestResponse,
    description: `Stored (or, with dryRun, planned); with ${REPLAYED_HEADER}, the kept answer of an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}`,
    headers: {
      [REPLAYED_HEADER]: {
        description: `"true" on a kept answer given again (also on a kept 4xx); absent otherwise`,
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiErrorResponses(
    {
      status: 400,
      description:
        "An invalid item, named by its path (`assets[57].ip must be an IP address`, `relations[3].targetAssetId refers to no asset`, `hosts[12].ip ...`, `results[4].vulnerabilities[0].score ...`, `line 7.risk_score ...`), a repeated id, deleteStale with append, a bad or unknown query option (or any with a JSON body and no format), an unknown format or one never sent as the body's Content-Type, XML that is not well formed, declares entities, names an external DTD or has another root (or the root of another format than the one named), CSV with a bad header or row, JSON of a scanner format that is not well formed, a corrupt gzip body, or an Idempotency-Key that is not 1 to 255 printable characters",
    },
    {
      status: 403,
      description:
        "The caller is a viewer, or, without the admin role (or with an API key lacking the scope 'admin'), asks for replace mode or for deleteStale without a source; or its API key lacks the scope 'ingest', is bound to sources that do not include the ingestion's source (or it names none), or is used from outside its allowedCidrs",
    },
    {
      status: 409,
      description: `append mode: an item id is already stored; the run would delete more assets than options.maxDeletions, or fix more findings than options.maxFixes (nothing written); or the first request with this ${IDEMPOTENCY_KEY_HEADER} is still running`,
    },
    {
      status: 413,
      description:
        'Body larger than INGEST_MAX_BYTES (64 MiB by default); a gzip body is measured inflated, and refused as soon as it inflates past the limit',
    },
    {
      status: 415,
      description: `A Content-Type other than application/json, ${SCANNER_MEDIA_TYPES.join(', ')}, or a Content-Encoding other than gzip or identity`,
    },
    {
      status: 422,
      description: `This ${IDEMPOTENCY_KEY_HEADER} was already used by this caller with another body`,
    },
  )
  async ingest(
    @CurrentUser() caller: Principal,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const form: IngestForm = {
      mediaType: request.headers['content-type'] ?? 'application/json',
      query: (request.query ?? {}) as Record<string, unknown>,
    };
    const answer = await this.recorder.record(caller, request, body, (raw, hooks) =>
      this.ingestion.ingest(caller, raw, hooks, form),
    );
    if (answer.replayed) void reply.header(REPLAYED_HEADER, 'true');
    void reply
      .status(answer.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(answer.body);
  }
}
