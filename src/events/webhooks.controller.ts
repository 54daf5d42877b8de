import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Roles } from '../common/decorators/roles.decorator.js';
import { PageQueryDto } from '../common/dto/page-query.dto.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { TOTAL_COUNT_HEADER } from '../common/openapi/headers.js';
import { NoQueryPipe } from '../common/pipes/no-query.pipe.js';
import { Role } from '../common/role.js';
import { CreateWebhookDto } from './dto/create-webhook.dto.js';
import { DeliveryResponse, toDeliveryResponse } from './dto/delivery-response.dto.js';
import { UpdateWebhookDto } from './dto/update-webhook.dto.js';
import {
  CreatedWebhookResponse,
  toWebhookResponse,
  WebhookResponse,
} from './dto/webhook-response.dto.js';
import { WebhooksService } from './webhooks.service.js';

const WEBHOOK_ID = ApiParam({ name: 'id', description: 'The webhook id (a UUID)' });
const NO_WEBHOOK = { status: 404, description: 'No webhook has this id' } as const;

/** Admins only. */
@ApiTags('webhooks')
@ApiAuthenticated()
@ApiErrorResponses({ status: 403, description: 'The caller is not an admin' })
@Roles(Role.Admin)
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({
    summary: 'List webhooks (admin)',
    description: 'Oldest first; never the secret.',
  })
  @ApiOkResponse({ type: [WebhookResponse] })
  async list(@Query(NoQueryPipe) _query: undefined): Promise<WebhookResponse[]> {
    return (await this.webhooks.list()).map(toWebhookResponse);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a webhook (admin)',
    description:
      'Events are sent as Standard Webhooks messages, signed with the secret answered here once.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiJsonBodyErrors(
    'The body is invalid, or the URL is refused (its scheme, or an address its host resolves to)',
  )
  async create(@Body() dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    const webhook = await this.webhooks.create(dto);
    return { ...toWebhookResponse(webhook), secret: webhook.secret };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook (admin)' })
  @WEBHOOK_ID
  @ApiOkResponse({ type: WebhookResponse })
  @ApiErrorResponses(NO_WEBHOOK)
  async get(@Param('id') id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.get(id));
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Update a webhook (admin)',
    description:
      'Any of `url`, `events`, `filter`, `enabled`; each given replaces the stored one whole. Enabling a webhook the service disabled starts its failures anew.',
  })
  @WEBHOOK_ID
  @ApiOkResponse({ type: WebhookResponse })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(NO_WEBHOOK)
  async update(@Param('id') id: string, @Body() dto: UpdateWebhookDto): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.update(id, dto));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete a webhook (admin)',
    description: 'Its pending deliveries are dropped.',
  })
  @WEBHOOK_ID
  @ApiNoContentResponse()
  @ApiErrorResponses(NO_WEBHOOK)
  async remove(@Param('id') id: string): Promise<void> {
    await this.webhooks.remove(id);
  }

  @Post(':id/ping')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Queue a ping event to a webhook (admin)' })
  @WEBHOOK_ID
  @ApiAcceptedResponse({ description: 'Queued' })
  @ApiErrorResponses(NO_WEBHOOK, { status: 409, description: 'The webhook is disabled' })
  async ping(@Param('id') id: string): Promise<void> {
    await this.webhooks.ping(id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: "List a webhook's deliveries (admin)",
    description: 'Newest first; the total before paging is in `X-Total-Count`.',
  })
  @WEBHOOK_ID
  @ApiOkResponse({ type: [DeliveryResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses(NO_WEBHOOK, { status: 400, description: 'A query parameter is invalid' })
  async deliveries(
    @Param('id') id: string,
    @Query() query: PageQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DeliveryResponse[]> {
    const { deliveries, total } = await this.webhooks.deliveries(id, query);
    void reply.header('X-Total-Count', total);
    return deliveries.map(toDeliveryResponse);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'Send a delivery again (admin)',
    description: 'Queues its event again, as a new delivery with the same `webhook-id`.',
  })
  @WEBHOOK_ID
  @ApiParam({ name: 'deliveryId', description: 'The delivery id' })
  @ApiAcceptedResponse({ description: 'Queued' })
  @ApiErrorResponses({ status: 404, description: 'No such webhook, or no such delivery of it' })
  async redeliver(@Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<void> {
    await this.webhooks.redeliver(id, deliveryId);
  }
}
