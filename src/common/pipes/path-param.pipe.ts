import { ArgumentMetadata, Injectable, NotFoundException, PipeTransform } from '@nestjs/common';

/**
 * Path ids are looked up as they are; one holding a NUL character names nothing (and
 * PostgreSQL would refuse it as text), so it is a 404 like any other unknown id.
 */
@Injectable()
export class PathParamPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'param' && typeof value === 'string' && value.includes('\0')) {
      throw new NotFoundException(`${metadata.data ?? 'id'} not found: it holds a NUL character`);
    }
    return value;
  }
}
