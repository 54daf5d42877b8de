import type { Type } from '@nestjs/common';
import { AssetsRepository } from './assets.repository.js';

/**
 * Every repository of the data layer: one per aggregate, owning every query over its tables.
 * DatabaseModule provides and exports them to every feature.
 */
export const REPOSITORIES: Type[] = [AssetsRepository];
