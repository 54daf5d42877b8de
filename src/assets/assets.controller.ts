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
} from '@nestjs/common';
import { Roles } from '../common/decorators/roles.decorator.js';
import { Role } from '../common/role.js';
import { AssetsService } from './assets.service.js';
import type { AssetListResponse } from './dto/asset-list-response.dto.js';
import type { AssetResponse } from './dto/asset-response.dto.js';
import { CreateAssetDto } from './dto/create-asset.dto.js';
import { ListAssetsQueryDto } from './dto/list-assets-query.dto.js';
import { UpdateAssetDto } from './dto/update-asset.dto.js';

/** Everyone signed in reads; editors and admins write. */
@Controller('assets')
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Get()
  list(@Query() query: ListAssetsQueryDto): Promise<AssetListResponse> {
    return this.assets.list(query);
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<AssetResponse> {
    return this.assets.get(id);
  }

  @Roles(Role.Editor)
  @Post()
  create(@Body() dto: CreateAssetDto): Promise<AssetResponse> {
    return this.assets.create(dto);
  }

  @Roles(Role.Editor)
  @Put(':id')
  update(@Param('id') id: string, @Body() dto: UpdateAssetDto): Promise<AssetResponse> {
    return this.assets.update(id, dto);
  }

  @Roles(Role.Editor)
  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  remove(@Param('id') id: string): Promise<void> {
    return this.assets.remove(id);
  }
}
