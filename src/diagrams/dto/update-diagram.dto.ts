import { PartialType } from '@nestjs/swagger';
import { CreateDiagramDto } from './create-diagram.dto.js';

/** A field left out stays as it is; null clears the description and is refused elsewhere. */
export class UpdateDiagramDto extends PartialType(CreateDiagramDto, {
  skipNullProperties: false,
}) {}
