import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/**
 * For a list route that takes no query parameter: any key is refused by name, as the routes
 * with a query DTO refuse an unknown one, rather than ignored.
 */
@Injectable()
export class NoQueryPipe implements PipeTransform<Record<string, unknown> | undefined> {
  transform(query: Record<string, unknown> | undefined): undefined {
    const [key] = Object.keys(query ?? {});
    if (key !== undefined) throw new BadRequestException(`${key} is not an accepted property`);
    return undefined;
  }
}
