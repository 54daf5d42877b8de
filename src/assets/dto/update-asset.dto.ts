import { PartialType } from '@nestjs/swagger';
import { CreateAssetDto } from './create-asset.dto.js';

/**
 * Any subset of the writable fields: one left out stays as it is, null clears an optional one
 * and is refused for the name (skipNullProperties: false validates null rather than skip it).
 */
export class UpdateAssetDto extends PartialType(CreateAssetDto, { skipNullProperties: false }) {}
